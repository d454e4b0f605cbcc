import { describe, expect, it, afterAll } from 'vitest';
import { existsSync, mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { makeRepo, removeRepos, ROOT } from '../helpers/repo.js';
import { resolveRunner } from '../../src/engine/runners/index.js';
import { CommandTestRunner } from '../../src/engine/runners/test-runner.js';
import { coverageSupport, withCoverage } from '../../src/engine/gen/coverage/measure.js';
import { changedCoverage } from '../../src/engine/gen/coverage/model.js';

afterAll(removeRepos);

const sign = [
  'export function sign(n) {',
  '  if (n < 0) {',
  "    return 'negative';",
  '  }',
  "  return 'positive';",
  '}',
  '',
].join('\n');
const signCjs = sign.replace('export function sign', 'function sign') + 'module.exports = { sign };\n';
const ALL = [1, 2, 3, 4, 5, 6];

function linkModules(repo: string): void {
  symlinkSync(join(ROOT, 'node_modules'), join(repo, 'node_modules'));
}

/** The project's node_modules without vitest's coverage providers: every package linked but those. */
function modulesWithoutCoverageProvider(repo: string): void {
  const nm = join(repo, 'node_modules');
  mkdirSync(join(nm, '@vitest'), { recursive: true });
  for (const name of readdirSync(join(ROOT, 'node_modules'))) {
    if (name !== '@vitest') symlinkSync(join(ROOT, 'node_modules', name), join(nm, name));
  }
  for (const name of readdirSync(join(ROOT, 'node_modules/@vitest'))) {
    if (!name.startsWith('coverage-')) symlinkSync(join(ROOT, 'node_modules/@vitest', name), join(nm, '@vitest', name));
  }
}

/** sign.js with one test of the positive case: line 3 (the negative return) never runs, one of two branches does. */
function expectSignCoverage(coverage: Parameters<typeof changedCoverage>[0], file = 'src/sign.js'): void {
  const c = changedCoverage(coverage, file, ALL);
  expect(c.uncovered).toContain(3);
  expect(c.uncovered).not.toContain(5);
  expect(c.totalBranches).toBeGreaterThan(0);
  expect(c.coveredBranches).toBeGreaterThan(0);
  expect(c.coveredBranches).toBeLessThan(c.totalBranches);
}

describe("coverage by the project's own Node tools", () => {
  it("vitest: its own --coverage (@vitest/coverage-v8) with a json report, also when tests fail; fixcycle's JSON report still read", async () => {
    const repo = makeRepo(null, {
      'package.json': JSON.stringify({
        type: 'module',
        scripts: { test: 'vitest run' },
        devDependencies: { vitest: '4.1', '@vitest/coverage-v8': '4.1' },
      }),
      // The project's own coverage settings: another reporter and folder, which fixcycle's run replaces.
      'vitest.config.js':
        "export default { test: { coverage: { reporter: ['text', 'html'], reportsDirectory: 'my-coverage' } } };\n",
      'src/sign.js': sign,
      'test/sign.test.js':
        "import { expect, test } from 'vitest';\nimport { sign } from '../src/sign.js';\ntest('positive', () => {\n  expect(sign(1)).toBe('positive');\n});\ntest('wrong on purpose', () => {\n  expect(sign(2)).toBe('negative');\n});\n",
    });
    linkModules(repo);
    const runner = await resolveRunner(repo, {});
    expect(runner.name).toBe('vitest');
    expect(coverageSupport(runner, repo)).toMatchObject({
      ok: true,
      how: expect.stringMatching(/@vitest\/coverage-v8/),
    });
    const { result, coverage, missing } = await withCoverage(runner, repo, ['src/never.js'], (r) =>
      r.run({ cwd: repo, scope: 'full', timeoutMs: 120_000 }),
    );
    expect(missing).toBeUndefined();
    expect(result.source).toBe('report');
    expect(result.result.tests.map((t) => t.status).sort()).toEqual(['failed', 'passed']);
    expect(Object.keys(coverage)).toEqual(['src/sign.js']);
    expect(changedCoverage(coverage, 'src/sign.js', ALL).uncovered).toEqual([3]);
    expect(changedCoverage(coverage, 'src/sign.js', ALL).branches).toBe(50);
    expect(existsSync(join(repo, 'my-coverage')) || existsSync(join(repo, 'coverage'))).toBe(false);
    // A subset run (the quality gate's per-test runs) is measured the same way.
    const subset = await withCoverage(runner, repo, [], async (r) =>
      (r as CommandTestRunner).runSubset(
        { cwd: repo, timeoutMs: 120_000 },
        { files: ['test/sign.test.js'], names: ['positive'] },
      ),
    );
    // vitest reports the tests -t left out as skipped.
    expect(subset.result?.result.tests.filter((t) => t.status !== 'skipped').map((t) => t.name)).toEqual(['positive']);
    expect(changedCoverage(subset.coverage, 'src/sign.js', ALL).uncovered).toEqual([3]);
  }, 180_000);

  it('vitest without a coverage provider: says to install @vitest/coverage-v8, and the tests still run', async () => {
    const repo = makeRepo(null, {
      'package.json': JSON.stringify({
        type: 'module',
        scripts: { test: 'vitest run' },
        devDependencies: { vitest: '4.1' },
      }),
      'src/sign.js': sign,
      'test/sign.test.js':
        "import { expect, test } from 'vitest';\nimport { sign } from '../src/sign.js';\ntest('positive', () => {\n  expect(sign(1)).toBe('positive');\n});\n",
    });
    modulesWithoutCoverageProvider(repo);
    const runner = await resolveRunner(repo, {});
    const support = coverageSupport(runner, repo);
    expect(support).toMatchObject({ ok: false, reason: expect.stringMatching(/install @vitest\/coverage-v8$/) });
    const { result, coverage, missing } = await withCoverage(runner, repo, [], (r) =>
      r.run({ cwd: repo, scope: 'full', timeoutMs: 120_000 }),
    );
    expect(result.result.tests.map((t) => t.status)).toEqual(['passed']);
    expect(coverage).toEqual({});
    expect(missing).toMatch(/install @vitest\/coverage-v8/);
  }, 180_000);

  it("node:test wrapped in c8: c8's own report for the full run (ours would get nothing), V8 coverage for a subset; the same lines either way", async () => {
    const repo = makeRepo(null, {
      'package.json': JSON.stringify({
        type: 'module',
        scripts: { test: 'c8 --reporter=text --reports-dir=coverage-c8 node --test' },
      }),
      'src/sign.js': sign,
      'test/sign.test.js':
        "import { test } from 'node:test';\nimport assert from 'node:assert';\nimport { sign } from '../src/sign.js';\ntest('positive', () => {\n  assert.equal(sign(1), 'positive');\n});\n",
    });
    linkModules(repo);
    const runner = await resolveRunner(repo, {});
    expect(runner.name).toBe('node-test');
    expect((runner as CommandTestRunner).wrappers).toEqual([['c8', '--reporter=text', '--reports-dir=coverage-c8']]);
    expect(coverageSupport(runner, repo)).toMatchObject({ ok: true, how: expect.stringMatching(/own c8/) });
    const full = await withCoverage(runner, repo, [], (r) => r.run({ cwd: repo, scope: 'full', timeoutMs: 120_000 }));
    expect(full.result.result.tests.map((t) => t.status)).toEqual(['passed']);
    expect(full.result.command[0]).toBe('c8');
    expectSignCoverage(full.coverage);
    // The user's reporters ran into fixcycle's folder, not the project's.
    expect(existsSync(join(repo, 'coverage-c8'))).toBe(false);
    expect(existsSync(join(repo, 'coverage'))).toBe(false);
    const subset = await withCoverage(runner, repo, [], async (r) =>
      (r as CommandTestRunner).runSubset(
        { cwd: repo, timeoutMs: 120_000 },
        { files: ['test/sign.test.js'], names: [] },
      ),
    );
    expect(subset.result?.command[0]).not.toBe('c8');
    expect(changedCoverage(subset.coverage, 'src/sign.js', ALL)).toEqual(
      changedCoverage(full.coverage, 'src/sign.js', ALL),
    );
  }, 120_000);

  it("mocha wrapped in nyc: nyc's own istanbul report, with fixcycle's reporter still hidden from the tests", async () => {
    const repo = makeRepo(null, {
      'package.json': JSON.stringify({ scripts: { test: 'nyc --reporter=lcov mocha' } }),
      'src/sign.js': signCjs,
      // A test reading process.argv: it must see the user's own command, not fixcycle's --reporter.
      'test/sign.test.js':
        "const assert = require('node:assert');\nconst { sign } = require('../src/sign.js');\nit('positive', () => {\n  assert.equal(sign(1), 'positive');\n});\nit('sees the user command line', () => {\n  assert.ok(!process.argv.includes('--reporter'), process.argv.join(' '));\n});\n",
    });
    linkModules(repo);
    const runner = await resolveRunner(repo, {});
    expect(runner.name).toBe('mocha');
    const { result, coverage } = await withCoverage(runner, repo, [], (r) =>
      r.run({ cwd: repo, scope: 'full', timeoutMs: 120_000 }),
    );
    expect(result.result.tests.map((t) => `${t.name} ${t.status}`).sort()).toEqual([
      'positive passed',
      'sees the user command line passed',
    ]);
    expect(Object.keys(coverage)).toEqual(['src/sign.js']);
    expectSignCoverage(coverage);
    expect(existsSync(join(repo, '.nyc_output'))).toBe(false);
  }, 120_000);
});
