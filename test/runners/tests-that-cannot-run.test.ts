import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveRunner } from '../../src/engine/runners/index.js';
import { needsWhatIsNotHere, testsThatCannotRunHere } from '../../src/engine/runners/tests-that-cannot-run.js';
import { copyFixture, removeFixtures } from './helpers/fixtures.js';

afterAll(removeFixtures);

// As inquirer's "No exception when using tty other than process.stdin": the test opens the terminal itself.
const OPENS_TTY = `import { test } from 'node:test';
import { openSync, closeSync } from 'node:fs';
test('reads keys from the terminal', () => { closeSync(openSync('/dev/tty', 'r')); });
`;

function project(files: Record<string, string>): string {
  const dir = copyFixture('node-test-passing');
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'fixture', private: true, type: 'module', scripts: { test: 'node --test' } }),
  );
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  return dir;
}

describe('a test that cannot run here', () => {
  it('a real run with no controlling terminal: the test opening /dev/tty fails with ENXIO, and the run stops naming it and quoting node', async () => {
    const dir = project({ 'tty.test.js': OPENS_TTY });
    const run = await (await resolveRunner(dir, {})).run({ cwd: dir, scope: 'full', timeoutMs: 60_000 });
    const failed = run.result.tests.filter((t) => t.status === 'failed');
    expect(failed.map((t) => t.name)).toEqual(['reads keys from the terminal']);
    expect(run.result.tests.filter((t) => t.status === 'passed').length).toBeGreaterThan(0);
    expect(run.noTestRan).toMatchObject({ cause: 'cannot run here', testsRan: true });
    // Where other tests fail too, this one is left out of what the agent is shown.
    expect(needsWhatIsNotHere({ message: failed[0]!.message ?? '', stack: failed[0]!.stack })).toBe(true);
    expect(run.noTestRan?.message).toMatch(
      /^the test `[^`]*reads keys from the terminal` cannot run on this machine: it fails only because a terminal \(\/dev\/tty\) is not here, which no change to the code can fix, so no agent is asked/,
    );
    expect(run.noTestRan?.message).toMatch(
      /the runner's own words:\n[^\n]*reads keys from the terminal:\n {2}.*ENXIO: no such device or address, open '\/dev\/tty'/,
    );
  });

  it('is no stop when another test fails too, or nothing names a missing device', async () => {
    const dir = project({
      'tty.test.js': OPENS_TTY,
      'wrong.test.js':
        "import { test } from 'node:test';\nimport assert from 'node:assert';\ntest('adds wrongly', () => assert.equal(1 + 1, 3));\n",
    });
    const run = await (await resolveRunner(dir, {})).run({ cwd: dir, scope: 'full', timeoutMs: 60_000 });
    expect(run.result.tests.filter((t) => t.status === 'failed')).toHaveLength(2);
    expect(run.noTestRan).toBeUndefined();
    expect(needsWhatIsNotHere({ message: 'AssertionError: 2 == 3' })).toBe(false);
    expect(
      testsThatCannotRunHere({
        format: 'tap',
        tests: [
          {
            id: 'a',
            name: 'a',
            status: 'failed',
            message: "Error: ENOENT: no such file or directory, open 'config.json'",
          },
        ],
        errors: [],
        truncated: false,
      }),
    ).toBeNull();
  });
});
