import { afterAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { makeRepo, removeRepos, ROOT } from '../helpers/repo.js';
import { resolveRunner, type TestRunner } from '../../src/engine/runners/index.js';
import { withCoverage } from '../../src/engine/gen/coverage/measure.js';
import { changedCoverage } from '../../src/engine/gen/coverage/model.js';
import { pytestLoadsCov, withoutOwnCoverageGates } from '../../src/engine/gen/coverage/own-gates.js';

afterAll(removeRepos);

// Projects as they are: their own coverage options and thresholds stay in their config and scripts; gen measures
// beside them, and a threshold the run misses is no failing run.

const signCjs =
  "function sign(n) {\n  if (n < 0) {\n    return 'negative';\n  }\n  return 'positive';\n}\nmodule.exports = { sign };\n";
const signEsm = signCjs.replace('module.exports = { sign };\n', '').replace('function sign', 'export function sign');
const ALL = [1, 2, 3, 4, 5, 6];

function linked(files: Record<string, string>): string {
  const repo = makeRepo(null, files);
  symlinkSync(join(ROOT, 'node_modules'), join(repo, 'node_modules'));
  return repo;
}

const run =
  (cwd: string, timeoutMs = 120_000) =>
  (r: TestRunner) =>
    r.run({ cwd, scope: 'full', timeoutMs });

describe("the project's own Node coverage thresholds", () => {
  it('node:test under `c8 --100`: the missed 100% is no failing run, in coverage runs and plain ones; c8 still measures', async () => {
    const repo = linked({
      'package.json': JSON.stringify({ type: 'module', scripts: { test: 'c8 --100 node --test' } }),
      'src/sign.js': signEsm,
      'test/sign.test.js':
        "import { test } from 'node:test';\nimport assert from 'node:assert';\nimport { sign } from '../src/sign.js';\ntest('positive', () => {\n  assert.equal(sign(1), 'positive');\n});\n",
    });
    const runner = await resolveRunner(repo, {});
    // As the user runs it: c8 fails the command although the test passed.
    const bare = await run(repo)(runner);
    expect(bare.result.errors.map((e) => e.message).join('\n')).toMatch(/exited with code 1 although no test failed/);
    const gen = await withoutOwnCoverageGates(runner, repo);
    const plain = await run(repo)(gen);
    expect(plain.command.slice(0, 4)).toEqual(['c8', '--100', '--check-coverage=false', '--100=false']);
    expect(plain.result.errors).toEqual([]);
    expect(plain.exitCode).toBe(0);
    const measured = await withCoverage(runner, repo, [], run(repo));
    expect(measured.missing).toBeUndefined();
    expect(measured.result.result.errors).toEqual([]);
    expect(measured.result.result.tests.map((t) => t.status)).toEqual(['passed']);
    const c = changedCoverage(measured.coverage, 'src/sign.js', ALL);
    expect(c.uncovered).toContain(3);
    expect(c.uncovered).not.toContain(5);
  }, 180_000);

  it("mocha under nyc with the thresholds in .nycrc: the same, nyc's report read", async () => {
    const repo = linked({
      'package.json': JSON.stringify({ scripts: { test: 'nyc mocha' } }),
      '.nycrc.json': JSON.stringify({ 'check-coverage': true, lines: 100 }),
      'src/sign.js': signCjs,
      'test/sign.test.js':
        "const assert = require('node:assert');\nconst { sign } = require('../src/sign.js');\nit('positive', () => {\n  assert.equal(sign(1), 'positive');\n});\n",
    });
    const runner = await resolveRunner(repo, {});
    const plain = await run(repo)(await withoutOwnCoverageGates(runner, repo));
    expect(plain.result.errors).toEqual([]);
    // The plain run is the user's own nyc, writing .nyc_output as it always does; gen's coverage run writes none.
    spawnSync('git', ['clean', '-fdxq', '-e', 'node_modules'], { cwd: repo });
    const measured = await withCoverage(runner, repo, [], run(repo));
    expect(measured.result.result.errors).toEqual([]);
    expect(changedCoverage(measured.coverage, 'src/sign.js', ALL).uncovered).toEqual([3]);
    expect(existsSync(join(repo, '.nyc_output'))).toBe(false);
  }, 180_000);

  it("jest's coverageThreshold (and collectCoverage in its config): no failing run, jest's own coverage read", async () => {
    const repo = linked({
      'package.json': JSON.stringify({
        scripts: { test: 'jest' },
        jest: { collectCoverage: true, coverageThreshold: { global: { lines: 100, branches: 100 } } },
      }),
      'src/sign.js': signCjs,
      'test/sign.test.js':
        "const { sign } = require('../src/sign.js');\ntest('positive', () => {\n  expect(sign(1)).toBe('positive');\n});\n",
    });
    const runner = await resolveRunner(repo, {});
    expect(runner.name).toBe('jest');
    const bare = await run(repo)(runner);
    expect(bare.result.errors.map((e) => e.message).join('\n')).toMatch(
      /coverage threshold for lines \(100%\) not met/,
    );
    const plain = await run(repo)(await withoutOwnCoverageGates(runner, repo));
    expect(plain.result.errors).toEqual([]);
    const measured = await withCoverage(runner, repo, [], run(repo));
    expect(measured.missing).toBeUndefined();
    expect(measured.result.result.errors).toEqual([]);
    expect(changedCoverage(measured.coverage, 'src/sign.js', ALL).uncovered).toEqual([3]);
  }, 180_000);
});

describe('runs that never end are bounded and named', () => {
  it('a jest test that leaves a handle open: the run is killed at the timeout, named, and the coverage jest wrote is kept', async () => {
    const repo = linked({
      'package.json': JSON.stringify({ scripts: { test: 'jest' } }),
      'src/sign.js': signCjs,
      'test/sign.test.js':
        "const { sign } = require('../src/sign.js');\ntest('positive', () => {\n  setInterval(() => {}, 1000);\n  expect(sign(1)).toBe('positive');\n});\n",
    });
    const runner = await resolveRunner(repo, {});
    const started = Date.now();
    const measured = await withCoverage(runner, repo, [], run(repo, 12_000));
    expect(Date.now() - started).toBeLessThan(40_000);
    expect(measured.result.timedOut).toBe(true);
    expect(measured.result.result.tests.map((t) => t.status)).toEqual(['passed']);
    expect(measured.result.result.errors[0]!.message).toMatch(/^the test command timed out and was killed/);
    expect(measured.result.result.errors[0]!.message).toMatch(/Jest did not exit/);
    // jest wrote its coverage before it hung: that is a measurement, not nothing.
    expect(measured.missing).toBeUndefined();
    expect(changedCoverage(measured.coverage, 'src/sign.js', ALL).uncovered).toEqual([3]);
  }, 120_000);

  it('a test that never ends: killed at the timeout, and the coverage run says in one line why it recorded nothing', async () => {
    const repo = linked({
      'package.json': JSON.stringify({ scripts: { test: 'jest' }, jest: { testTimeout: 600_000 } }),
      'src/sign.js': signCjs,
      'test/sign.test.js':
        "const { sign } = require('../src/sign.js');\ntest('waits forever', async () => {\n  expect(sign(1)).toBe('positive');\n  await new Promise(() => {});\n});\n",
    });
    const runner = await resolveRunner(repo, {});
    const measured = await withCoverage(runner, repo, ['src/sign.js'], run(repo, 10_000));
    expect(measured.result.timedOut).toBe(true);
    expect(measured.missing).toMatch(
      /^jest's --coverage recorded nothing: the run did not end within the test timeout and was killed \(a test left a timer, server or socket open, or the suite needs a longer --test-timeout\)$/,
    );
  }, 120_000);
});

// pytest-cov is Debian's python3-pytest-cov (.ci/run installs it), for /usr/bin/python3.
const PYTHON = '/usr/bin/python3';
const hasPytestCov = spawnSync(PYTHON, ['-c', 'import pytest, coverage, pytest_cov'], { stdio: 'ignore' }).status === 0;

describe('pytest-cov in the project options', () => {
  it.skipIf(!hasPytestCov)(
    "`addopts = --cov=pkg --cov-fail-under=100`: gen runs with --no-cov, fixcycle's coverage.py measures, no failing run, no .coverage left (needs python3-pytest-cov)",
    async () => {
      const repo = makeRepo(null, {
        'pkg/__init__.py': '',
        'pkg/calc.py': 'def sign(n):\n    if n < 0:\n        return "negative"\n    return "positive"\n',
        'tests/test_calc.py': 'from pkg.calc import sign\n\n\ndef test_positive():\n    assert sign(1) == "positive"\n',
        'setup.cfg':
          '[tool:pytest]\naddopts = --cov=pkg --cov-report=term-missing --cov-fail-under=100\ntestpaths = tests\n',
      });
      const runner = await resolveRunner(repo, { testCmd: `${PYTHON} -m pytest` });
      expect(await pytestLoadsCov(runner, repo)).toBe(true);
      const bare = await run(repo)(runner);
      expect(bare.result.errors.map((e) => e.message).join('\n')).toMatch(/Required test coverage of 100% not reached/);
      const plain = await run(repo)(await withoutOwnCoverageGates(runner, repo));
      expect(plain.command.at(-1)).toBe('--no-cov');
      expect(plain.result.errors).toEqual([]);
      const measured = await withCoverage(runner, repo, [], run(repo));
      expect(measured.missing).toBeUndefined();
      expect(measured.result.result.errors).toEqual([]);
      const c = changedCoverage(measured.coverage, 'pkg/calc.py', [1, 2, 3, 4]);
      expect(c.uncovered).toEqual([3]);
      expect(c.totalBranches).toBe(2);
      // The user's own run wrote .coverage (pytest-cov's); remove it to see gen's runs write none.
      spawnSync('git', ['clean', '-fdxq'], { cwd: repo });
      await withCoverage(runner, repo, [], run(repo));
      expect(existsSync(join(repo, '.coverage'))).toBe(false);
    },
    180_000,
  );

  it.skipIf(!hasPytestCov)(
    'a project without --cov options: pytest-cov installed is harmless, and no --no-cov where pytest has no such option',
    async () => {
      const repo = makeRepo(null, {
        'calc.py': 'def one():\n    return 1\n',
        'test_calc.py': 'from calc import one\n\n\ndef test_one():\n    assert one() == 1\n',
      });
      const withPlugin = await resolveRunner(repo, { testCmd: `${PYTHON} -m pytest` });
      const plain = await run(repo)(await withoutOwnCoverageGates(withPlugin, repo));
      expect(plain.result.errors).toEqual([]);
      // pytest with plugin autoloading off has no --no-cov: gen must not pass it.
      const noPlugins = await resolveRunner(repo, { testCmd: `PYTEST_DISABLE_PLUGIN_AUTOLOAD=1 ${PYTHON} -m pytest` });
      expect(await pytestLoadsCov(noPlugins, repo)).toBe(false);
      const bare = await run(repo)(await withoutOwnCoverageGates(noPlugins, repo));
      expect(bare.command).not.toContain('--no-cov');
      expect(bare.result.errors).toEqual([]);
    },
    120_000,
  );
});
