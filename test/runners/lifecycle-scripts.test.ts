import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveRunner } from '../../src/engine/runners/index.js';
import { copyFixture, removeFixtures } from './helpers/fixtures.js';

afterAll(removeFixtures);

/** A node:test fixture with `scripts` (pretest, posttest...) whose helper scripts log each run to runs.log. */
function project(fixture: string, scripts: Record<string, string>, extra: Record<string, string> = {}): string {
  const dir = copyFixture(fixture);
  const log = (name: string, code: number) =>
    `import { appendFileSync } from 'node:fs';\nappendFileSync('runs.log', '${name}\\n');\nconsole.log('${name} ran');\nprocess.exit(${code});\n`;
  writeFileSync(join(dir, 'lint.mjs'), log('lint', 0));
  writeFileSync(join(dir, 'build.mjs'), log('build', 0));
  writeFileSync(join(dir, 'audit-ok.mjs'), log('audit', 0));
  writeFileSync(join(dir, 'audit-bad.mjs'), log('audit', 3));
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'fixture', private: true, type: 'module', scripts: { lint: 'node lint.mjs', ...scripts } }),
  );
  for (const [name, content] of Object.entries(extra)) writeFileSync(join(dir, name), content);
  return dir;
}

const runs = (dir: string): string[] => readFileSync(join(dir, 'runs.log'), 'utf8').trim().split('\n');

/** What `npm test` itself runs in `dir`, in order (runs.log), left as it was found. */
function npmTestRuns(dir: string): string[] {
  rmSync(join(dir, 'runs.log'), { force: true });
  spawnSync('npm', ['test'], { cwd: dir, encoding: 'utf8', env: { ...process.env, npm_config_loglevel: 'silent' } });
  const order = runs(dir);
  rmSync(join(dir, 'runs.log'), { force: true });
  return order;
}

describe("npm's pretest and posttest", () => {
  it('run as parts of the test command, in the order npm runs them: pretest first, posttest after the tests passed', async () => {
    const dir = project('node-test-passing', {
      pretest: 'npm run lint && node build.mjs',
      test: 'node --test',
      posttest: 'node audit-ok.mjs',
    });
    const runner = await resolveRunner(dir, {});
    expect(runner.describe()).toMatchObject({
      setup: [
        ['npm', 'run', 'lint'],
        ['node', 'build.mjs'],
      ],
      after: [['node', 'audit-ok.mjs']],
    });
    const parts: string[] = [];
    const onPart = (part: { argv: string[]; kind: string; result: { exitCode: number | null } | null }) =>
      parts.push(`${part.kind} ${part.argv.join(' ')} ${part.result?.exitCode}`);
    const full = await runner.run({ cwd: dir, scope: 'full', timeoutMs: 60_000, onPart });
    expect(full.result.errors).toEqual([]);
    expect(full.result.tests.filter((t) => t.status === 'passed').length).toBeGreaterThan(0);
    expect(parts).toEqual(['check npm run lint 0', 'setup node build.mjs 0', 'after node audit-ok.mjs 0']);
    const fixcycleOrder = runs(dir);
    expect(fixcycleOrder).toEqual(npmTestRuns(dir));
    // A re-test of the affected tests runs the build the tests load, not the linter nor posttest.
    await runner.run({ cwd: dir, scope: 'affected', changedFiles: ['math.js'], lastFailures: [], timeoutMs: 60_000 });
    expect(runs(dir)).toEqual(['build']);
  });

  it('a failing posttest is a failure of the run; after failing tests it does not run, as with npm', async () => {
    const passing = project('node-test-passing', { test: 'node --test', posttest: 'node audit-bad.mjs' });
    const run = await (await resolveRunner(passing, {})).run({ cwd: passing, scope: 'full', timeoutMs: 60_000 });
    expect(run.result.errors.map((e) => e.message)).toEqual([
      expect.stringMatching(
        /^`node audit-bad\.mjs` \(the test script runs after the tests\) exited 3; its last output:\naudit ran/,
      ),
    ]);

    const failing = project('node-test-failing', {
      pretest: 'npm run lint',
      test: 'node --test',
      posttest: 'node audit-ok.mjs',
    });
    const failed = await (await resolveRunner(failing, {})).run({ cwd: failing, scope: 'full', timeoutMs: 60_000 });
    expect(failed.result.tests.some((t) => t.status === 'failed')).toBe(true);
    expect(runs(failing)).toEqual(['lint']);
    expect(npmTestRuns(failing)).toEqual(['lint']);
  });

  it('follow `npm test` given as the command, and `npm run <script>` inside the test script, without running them twice', async () => {
    const dir = project('node-test-passing', {
      pretest: 'node lint.mjs',
      test: 'npm run unit',
      preunit: 'node build.mjs',
      unit: 'node --test',
      posttest: 'node audit-ok.mjs',
    });
    const detected = await resolveRunner(dir, {});
    expect(detected.describe()).toMatchObject({
      setup: [
        ['node', 'lint.mjs'],
        ['node', 'build.mjs'],
      ],
      after: [['node', 'audit-ok.mjs']],
    });
    const given = await resolveRunner(dir, { testCmd: 'npm test' });
    expect(given.describe()).toMatchObject({
      setup: [
        ['node', 'lint.mjs'],
        ['node', 'build.mjs'],
      ],
      after: [['node', 'audit-ok.mjs']],
    });
    await detected.run({ cwd: dir, scope: 'full', timeoutMs: 60_000 });
    expect(runs(dir)).toEqual(npmTestRuns(dir));
  });

  it('are left out where the package manager runs none (pnpm without enable-pre-post-scripts, yarn 2+)', async () => {
    const scripts = { pretest: 'node lint.mjs', test: 'node --test', posttest: 'node audit-ok.mjs' };
    const pnpm = await resolveRunner(
      project('node-test-passing', scripts, { 'pnpm-lock.yaml': "lockfileVersion: '9.0'\n" }),
      {},
    );
    expect(pnpm.describe()).toMatchObject({ setup: [], after: [] });
    const pnpmOn = await resolveRunner(
      project('node-test-passing', scripts, {
        'pnpm-lock.yaml': "lockfileVersion: '9.0'\n",
        '.npmrc': 'enable-pre-post-scripts=true\n',
      }),
      {},
    );
    expect(pnpmOn.describe()).toMatchObject({ setup: [['node', 'lint.mjs']], after: [['node', 'audit-ok.mjs']] });
    const berry = await resolveRunner(
      project('node-test-passing', scripts, { '.yarnrc.yml': 'nodeLinker: node-modules\n' }),
      {},
    );
    expect(berry.describe()).toMatchObject({ setup: [], after: [] });
  });

  it('follow the package manager the command names: npm and yarn 1 run them, pnpm does not', async () => {
    const scripts = { pretest: 'node lint.mjs', test: 'node --test', posttest: 'node audit-ok.mjs' };
    const both = { setup: [['node', 'lint.mjs']], after: [['node', 'audit-ok.mjs']] };
    const pnpmProject = project('node-test-passing', scripts, { 'pnpm-lock.yaml': "lockfileVersion: '9.0'\n" });
    expect((await resolveRunner(pnpmProject, { testCmd: 'npm test' })).describe()).toMatchObject(both);
    expect((await resolveRunner(pnpmProject, { testCmd: 'pnpm test' })).describe()).toMatchObject({
      setup: [],
      after: [],
    });
    expect(
      (
        await resolveRunner(project('node-test-passing', scripts, { 'yarn.lock': '' }), { testCmd: 'yarn test' })
      ).describe(),
    ).toMatchObject(both);
    expect(
      (
        await resolveRunner(project('node-test-passing', scripts, { '.yarnrc.yml': '' }), { testCmd: 'yarn test' })
      ).describe(),
    ).toMatchObject({ setup: [], after: [] });
  });

  it('keeps a lifecycle script that needs a shell whole, run through npm', async () => {
    const dir = project('node-test-passing', { pretest: 'node lint.mjs || true', test: 'node --test' });
    expect((await resolveRunner(dir, {})).describe()).toMatchObject({ setup: [['npm', 'run', 'pretest']] });
  });
});
