import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { rerunFailures, resolveRunner } from '../../src/engine/runners/index.js';
import { copyFixture, removeFixtures } from './helpers/fixtures.js';

afterAll(removeFixtures);

/** Adds a second module with its own passing test file next to the fixture's math tests. */
function addStrings(dir: string, style: 'esm' | 'cjs'): void {
  if (style === 'esm') {
    writeFileSync(join(dir, 'strings.js'), 'export const shout = (s) => s.toUpperCase();\n');
    writeFileSync(
      join(dir, 'strings.test.js'),
      "import { expect, it } from 'vitest';\nimport { shout } from './strings.js';\n\nit('shouts', () => expect(shout('a')).toBe('A'));\n",
    );
  } else {
    writeFileSync(join(dir, 'strings.js'), 'exports.shout = (s) => s.toUpperCase();\n');
    writeFileSync(
      join(dir, 'strings.test.js'),
      "const { shout } = require('./strings.js');\n\nit('shouts', () => expect(shout('a')).toBe('A'));\n",
    );
  }
}

const files = (ids: string[]): string[] => [...new Set(ids.map((id) => id.split('::')[0]!))].sort();

describe('affected runs', () => {
  it('use jest --findRelatedTests on the changed files plus the files that failed last time', async () => {
    const dir = copyFixture('jest-failing');
    addStrings(dir, 'cjs');
    const runner = await resolveRunner(dir, {});

    const only = await runner.run({
      cwd: dir,
      scope: 'affected',
      changedFiles: ['strings.js'],
      lastFailures: [],
      timeoutMs: 60_000,
    });
    expect(only.command).toContain('--findRelatedTests');
    expect(only.selection?.reason).toMatch(/related-tests mode on 1 changed file/);
    expect(files(only.result.tests.map((test) => test.id))).toEqual(['strings.test.js']);

    const withFailures = await runner.run({
      cwd: dir,
      scope: 'affected',
      changedFiles: ['strings.js'],
      lastFailures: [{ id: 'math.test.js::math > multiplies', file: 'math.test.js' }],
      timeoutMs: 60_000,
    });
    expect(files(withFailures.result.tests.map((test) => test.id))).toEqual(['math.test.js', 'strings.test.js']);
  });

  it('run the test files the import graph selects for vitest, and always the last failures', async () => {
    const dir = copyFixture('vitest-failing');
    addStrings(dir, 'esm');
    const runner = await resolveRunner(dir, {});
    const run = await runner.run({
      cwd: dir,
      scope: 'affected',
      changedFiles: ['strings.js'],
      lastFailures: [{ id: 'math.test.js::math > multiplies', file: 'math.test.js' }],
      timeoutMs: 60_000,
    });
    expect(run.selection?.files).toEqual(['math.test.js', 'strings.test.js']);
    expect(run.selection?.reason).toBeTruthy();
    expect(files(run.result.tests.map((test) => test.id))).toEqual(['math.test.js', 'strings.test.js']);
  });

  it('fall back to the full suite, saying why, when package.json changed or a last failure has no file', async () => {
    const dir = copyFixture('mocha-failing');
    const runner = await resolveRunner(dir, {});
    const manifest = await runner.run({
      cwd: dir,
      scope: 'affected',
      changedFiles: ['package.json'],
      lastFailures: [],
      timeoutMs: 60_000,
    });
    expect(manifest.selection).toBeNull();
    expect(manifest.fallbackReason).toMatch(/package\.json/);
    expect(manifest.result.tests).toHaveLength(4);

    const unplaced = await runner.run({
      cwd: dir,
      scope: 'affected',
      changedFiles: ['math.js'],
      lastFailures: [{ id: 'adds > two' }],
      timeoutMs: 60_000,
    });
    expect(unplaced.selection).toBeNull();
    expect(unplaced.fallbackReason).toMatch(/"adds > two" has no file/);
  });
});

describe('rerunFailures', () => {
  it('returns the failing tests that pass on a re-run (flaky), not the ones that keep failing', async () => {
    const dir = copyFixture('mocha-flaky');
    const runner = await resolveRunner(dir, {});
    const first = await runner.run({ cwd: dir, scope: 'full', timeoutMs: 60_000 });
    const failures = first.result.tests.filter((test) => test.status === 'failed');
    expect(failures.map((test) => test.id).sort()).toEqual([
      'test/flaky.spec.js::service > answers within the deadline',
      'test/flaky.spec.js::service > parses the config',
    ]);

    const flaky = await rerunFailures(runner, dir, failures, 1, 60_000);
    expect(flaky).toEqual(['test/flaky.spec.js::service > answers within the deadline']);
  });

  it('narrows a jest re-run to the failing tests by file and name', async () => {
    const dir = copyFixture('jest-failing');
    const runner = await resolveRunner(dir, {});
    const failures = [
      { id: 'math.test.js::math > adds big numbers', name: 'math > adds big numbers', file: 'math.test.js' },
    ];
    const run = await runner.runSubset(
      { cwd: dir, timeoutMs: 60_000 },
      { files: ['math.test.js'], names: ['adds big numbers'] },
    );
    expect(run?.command).toEqual(
      expect.arrayContaining(['--runTestsByPath', 'math.test.js', '-t', 'adds big numbers']),
    );
    expect(run?.result.tests.filter((test) => test.status !== 'skipped').map((test) => test.id)).toEqual([
      'math.test.js::math > adds big numbers',
    ]);
    expect(await rerunFailures(runner, dir, failures, 2, 60_000)).toEqual([]);
  });
});
