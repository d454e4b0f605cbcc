import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveRunner } from '../../src/engine/runners/index.js';
import { isCheckPart } from '../../src/engine/runners/script-parts.js';
import { copyFixture, removeFixtures } from './helpers/fixtures.js';

afterAll(removeFixtures);

/** A node:test fixture whose test script is `script`, with scripts that log each run to runs.log. */
function project(fixture: string, script: string): string {
  const dir = copyFixture(fixture);
  const log = (name: string, code: number) =>
    `import { appendFileSync } from 'node:fs';\nappendFileSync('runs.log', '${name}\\n');\nconsole.log('${name} ran');\nprocess.exit(${code});\n`;
  writeFileSync(join(dir, 'lint.mjs'), log('lint', 0));
  writeFileSync(join(dir, 'build.mjs'), log('build', 0));
  writeFileSync(join(dir, 'types-ok.mjs'), log('types', 0));
  writeFileSync(join(dir, 'types-bad.mjs'), log('types', 2));
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({
      name: 'fixture',
      private: true,
      type: 'module',
      scripts: { lint: 'node lint.mjs', build: 'node build.mjs', test: script },
    }),
  );
  return dir;
}

const runs = (dir: string): string[] => readFileSync(join(dir, 'runs.log'), 'utf8').trim().split('\n');

describe('the parts of a test script around the runner', () => {
  it('runs a linter with the full suite only, a build before every run, and reports each part', async () => {
    const dir = project('node-test-passing', 'npm run lint && npm run build && node --test && node types-ok.mjs');
    const runner = await resolveRunner(dir, {});
    expect(runner.describe()).toMatchObject({
      setup: [
        ['npm', 'run', 'lint'],
        ['npm', 'run', 'build'],
      ],
      after: [['node', 'types-ok.mjs']],
    });
    const parts: string[] = [];
    const onPart = (part: { argv: string[]; kind: string; result: { exitCode: number | null } | null }) =>
      parts.push(`${part.kind} ${part.argv.join(' ')} ${part.result?.exitCode}`);
    const full = await runner.run({ cwd: dir, scope: 'full', timeoutMs: 60_000, onPart });
    expect(full.noTestRan).toBeUndefined();
    expect(full.result.errors).toEqual([]);
    expect(parts).toEqual(['check npm run lint 0', 'setup npm run build 0', 'after node types-ok.mjs 0']);
    expect(runs(dir)).toEqual(['lint', 'build', 'types']);
    const affected = await runner.run({
      cwd: dir,
      scope: 'affected',
      changedFiles: ['math.js'],
      lastFailures: [],
      timeoutMs: 60_000,
    });
    expect(affected.selection).not.toBeNull();
    expect(runs(dir)).toEqual(['lint', 'build', 'types', 'build']);
  });

  it('counts a failing part after the tests, and follows && and ; as the shell would', async () => {
    const passing = project('node-test-passing', 'node --test && node types-bad.mjs');
    const run = await (await resolveRunner(passing, {})).run({ cwd: passing, scope: 'full', timeoutMs: 60_000 });
    expect(run.result.errors.map((e) => e.message)).toEqual([
      expect.stringMatching(
        /^`node types-bad\.mjs` \(the test script runs after the tests\) exited 2; its last output:\ntypes ran/,
      ),
    ]);
    expect(run.result.tests.some((t) => t.status === 'failed')).toBe(false);

    const failingTests = project('node-test-failing', 'node --test && node types-ok.mjs ; node lint.mjs');
    const failed = await (
      await resolveRunner(failingTests, {})
    ).run({ cwd: failingTests, scope: 'full', timeoutMs: 60_000 });
    expect(failed.result.tests.some((t) => t.status === 'failed')).toBe(true);
    // `&&` after failing tests does not run; `;` does.
    expect(runs(failingTests)).toEqual(['lint']);
  });
});

describe('isCheckPart', () => {
  it.each([
    [['xo'], true],
    [['pnpm', 'lint'], true],
    [['npm', 'run', 'check:types'], true],
    [['tsc', '--noEmit'], true],
    [['tsc'], false],
    [['npm', 'run', 'build'], false],
    [['npx', 'eslint', '.'], true],
    [['make', 'lint'], true],
    [['make', 'build'], false],
  ])('%j -> %s', (argv, check) => expect(isCheckPart(argv)).toBe(check));
});
