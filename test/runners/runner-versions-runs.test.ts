import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseSummaryLine } from '../../src/engine/report/index.js';
import { resolveRunner } from '../../src/engine/runners/index.js';
import type { TestRun } from '../../src/engine/runners/index.js';
import { counts } from './helpers/fixtures.js';
import { installRunner, makeProject, removeProjects } from './helpers/runner-versions.js';

// Real old and new runner versions, installed from the npm registry into a cache outside the repository,
// each run on a small project broken and then fixed, as fixcycle runs them.

afterAll(removeProjects);

// Each project below holds one skipped test on purpose (`it.skip`, `{ skip: true }`, `test.skip`): the skipped
// count is compared with the runner's own summary too.

const MOCHA_TEST = (broken: boolean): string => `const assert = require('assert');
describe('calc', function () {
  it('adds', function () { assert.strictEqual(1 + 1, 2); });
  it('subtracts', function () { assert.deepStrictEqual({ a: 1, b: [2, 3] }, { a: 1, b: [2, ${broken ? 4 : 3}] }); });
  it.skip('later', function () {});
  describe('nested', function () {
    it('throws', function () { ${broken ? "throw new TypeError('boom 42');" : 'assert.ok(true);'} });
  });
});
`;

const TAP_TEST = (broken: boolean): string => `const t = require('tap');
t.test('adds', (t) => { t.equal(1 + 1, 2, 'one plus one'); t.equal(2 + 2, 4); t.end(); });
t.test('subtracts', (t) => { t.same({ a: 1, b: [2, 3] }, { a: 1, b: [2, ${broken ? 4 : 3}] }, 'objects match'); t.end(); });
t.test('nested group', async (t) => {
  t.test('throws inside', async () => { ${broken ? "throw new TypeError('boom 42');" : ''} });
  t.test('fine', async (t) => { t.ok(true); });
});
t.test('later', { skip: true }, (t) => t.end());
`;

const UVU_TEST = (broken: boolean): string => `const { test, suite } = require('uvu');
const assert = require('uvu/assert');
test('adds', () => { assert.is(1 + 1, 2); });
test('subtracts', () => { assert.equal({ a: [2, 3] }, { a: [2, ${broken ? 4 : 3}] }); });
test.skip('later', () => {});
test.run();
const strings = suite('strings');
strings('lower', () => { assert.is('A'.toLowerCase(), '${broken ? 'b' : 'a'}', 'lower case'); });
strings.run();
`;

/** What node-tap itself says of each file: its plan and `# failed N of M tests`, one level in. */
function tapOwnCounts(log: string): { tests: number; failed: number; skipped: number } {
  const sum = { tests: 0, failed: 0, skipped: 0 };
  for (const [, n] of log.matchAll(/^ {4}# skip: (\d+)$/gm)) sum.skipped += Number(n);
  for (const [, n] of log.matchAll(/^ {4}1\.\.(\d+)$/gm)) sum.tests += Number(n);
  for (const [, n] of log.matchAll(/^ {4}# failed (\d+) (?:of \d+ )?tests?$/gm)) sum.failed += Number(n);
  return sum;
}

interface Version {
  spec: string;
  runner: string;
  script: string;
  file: string;
  source: (broken: boolean) => string;
  /** The runner's own counts, read from the run's log. */
  own: (log: string) => { passed: number; failed: number; skipped: number };
  broken: { passed: number; failed: number; skipped: number };
  failing: { id: string; message: RegExp };
}

const mochaOwn = (log: string) => {
  const summary = parseSummaryLine(log);
  if (!summary) throw new Error(`no mocha summary in:\n${log}`);
  return { passed: summary.passed, failed: summary.failed, skipped: summary.skipped };
};

const VERSIONS: Version[] = [
  ...['mocha@5', 'mocha@6', 'mocha@8'].map((spec) => ({
    spec,
    runner: 'mocha',
    script: 'mocha',
    file: 'test/calc.test.js',
    source: MOCHA_TEST,
    own: mochaOwn,
    broken: { passed: 1, failed: 2, skipped: 1 },
    failing: {
      id: 'test/calc.test.js::calc > subtracts',
      message: /^AssertionError \[ERR_ASSERTION\]: Expected values to be strictly deep-equal:[\s\S]*\+ {5}3\n- {5}4/,
    },
  })),
  ...['tap@12', 'tap@16'].map((spec) => ({
    spec,
    runner: 'tap',
    script: 'tap test/*.js',
    file: 'test/calc.js',
    source: TAP_TEST,
    own: (log: string) => {
      const own = tapOwnCounts(log);
      return { passed: own.tests - own.failed - own.skipped, failed: own.failed, skipped: own.skipped };
    },
    broken: { passed: 1, failed: 2, skipped: 1 },
    failing: {
      id: 'test/calc.js::nested group',
      message: /^throws inside: TypeError: boom 42\n[\s\S]*\nat test\/calc\.js:5:\d+$/,
    },
  })),
  {
    spec: 'uvu@0.5',
    runner: 'uvu',
    script: 'uvu tests',
    file: 'tests/calc.js',
    source: UVU_TEST,
    own: (log: string) => {
      const summary = parseSummaryLine(log);
      if (summary?.runner !== 'uvu') throw new Error(`no uvu summary in:\n${log}`);
      return { passed: summary.passed, failed: summary.failed, skipped: summary.skipped };
    },
    broken: { passed: 1, failed: 2, skipped: 1 },
    failing: {
      id: 'calc.js::strings > test 1',
      message: /^lower case {2}\(is\)[\s\S]*\+\+b[\s\S]*--a[\s\S]*\nat tests\/calc\.js:8:/,
    },
  },
];

async function runOnce(dir: string): Promise<{ run: TestRun; log: string; name: string }> {
  const logFile = join(dir, `test-output-${Date.now()}.log`);
  writeFileSync(logFile, '');
  const runner = await resolveRunner(dir, {});
  const run = await runner.run({ cwd: dir, scope: 'full', timeoutMs: 120_000, logFile });
  return { run, log: readFileSync(logFile, 'utf8'), name: runner.name };
}

describe.each(VERSIONS)('$spec', (version) => {
  it('is detected, counts what the runner counts, keeps its evidence, and reads a clean run after the fix', async (context) => {
    const installed = installRunner(version.spec);
    if ('skip' in installed) {
      // The runner version cannot be installed here (no registry, a failed install): the reason is the skip's.
      context.skip(installed.skip);
      return;
    }
    const dir = makeProject(
      {
        'package.json': JSON.stringify({ name: 'p', version: '1.0.0', scripts: { test: version.script } }),
        [version.file]: version.source(true),
      },
      installed.modules,
    );

    const broken = await runOnce(dir);
    expect(broken.name).toBe(version.runner);
    expect(broken.run.result.errors).toEqual([]);
    expect(counts(broken.run.result)).toEqual({ ...version.broken, errors: 0 });
    expect(counts(broken.run.result)).toEqual({ ...version.own(broken.log), errors: 0 });
    const failing = broken.run.result.tests.find((test) => test.id === version.failing.id);
    expect(failing?.status).toBe('failed');
    expect(failing?.message).toMatch(version.failing.message);
    expect(broken.run.exitCode).not.toBe(0);

    writeFileSync(join(dir, version.file), version.source(false));
    const fixed = await runOnce(dir);
    expect(fixed.run.result.errors).toEqual([]);
    expect(fixed.run.exitCode).toBe(0);
    const total = version.broken.passed + version.broken.failed;
    expect(counts(fixed.run.result)).toEqual({ passed: total, failed: 0, skipped: version.broken.skipped, errors: 0 });
    expect(counts(fixed.run.result)).toEqual({ ...version.own(fixed.log), errors: 0 });
    // The tests that failed pass under the same ids: none goes missing.
    expect(fixed.run.result.tests.map((test) => test.id).sort()).toEqual(
      broken.run.result.tests.map((test) => test.id).sort(),
    );
  }, 300_000);
});
