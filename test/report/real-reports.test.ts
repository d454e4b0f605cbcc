import { describe, expect, it } from 'vitest';
import {
  parseReport,
  parseSummaryLine,
  summarizeResult,
  type ReportSummary,
  type SummaryCounts,
} from '../../src/engine/report/index.js';
import type { NormalizedResult } from '../../src/engine/types.js';
import { readReport } from './fixture.js';

function read(path: string, rootDir?: string): NormalizedResult {
  const outcome = parseReport(readReport(path), undefined, rootDir ? { rootDir } : {});
  if (!outcome.ok) throw new Error(`${path}: ${outcome.error}`);
  return outcome.result;
}

function summaryOf(path: string): SummaryCounts {
  const counts = parseSummaryLine(readReport(path));
  if (!counts) throw new Error(`${path}: no summary line`);
  return counts;
}

const counts = ({ passed, failed, skipped, errors, truncated, ok }: ReportSummary) => ({
  passed,
  failed,
  skipped,
  errors,
  truncated,
  ok,
});

// Each case: the real report, the runner's own output, what we read, and how the runner's summary line
// counts the same run (runners differ in where they put errors outside tests and skipped tests).
describe('counts read from real reports match the runner’s own summary line', () => {
  it('vitest JSON: an import error is an error outside tests, todo is skipped', () => {
    const summary = summarizeResult(read('vitest/mixed.json'));
    expect(counts(summary)).toEqual({ passed: 5, failed: 2, skipped: 2, errors: 1, truncated: false, ok: false });
    const line = summaryOf('vitest/mixed.out.txt');
    expect(line).toMatchObject({
      runner: 'vitest',
      passed: summary.passed,
      failed: summary.failed,
      skipped: summary.skipped,
    });
  });

  it('jest JSON: a suite that failed to run is an error, numbers match the Tests: line', () => {
    const summary = summarizeResult(read('jest/mixed.json'));
    expect(counts(summary)).toEqual({ passed: 5, failed: 2, skipped: 2, errors: 1, truncated: false, ok: false });
    expect(summaryOf('jest/mixed.out.txt')).toMatchObject({ runner: 'jest', passed: 5, failed: 2, skipped: 2 });
  });

  it('mocha JSON: a failing hook is an error, and mocha counts it among the failing', () => {
    const summary = summarizeResult(read('mocha/mixed.json'));
    expect(counts(summary)).toEqual({ passed: 5, failed: 3, skipped: 2, errors: 1, truncated: false, ok: false });
    const line = summaryOf('mocha/mixed.out.txt');
    expect(line).toMatchObject({ runner: 'mocha', passed: summary.passed, skipped: summary.skipped });
    expect(line.failed).toBe(summary.failed + summary.errors);
  });

  it.each(['node-test/mixed.xml', 'node-test/mixed.tap'])(
    'node:test %s: the file that failed to load is an error, node counts it as a failed test',
    (path) => {
      const summary = summarizeResult(read(path));
      expect(counts(summary)).toEqual({ passed: 4, failed: 2, skipped: 2, errors: 1, truncated: false, ok: false });
      const line = summaryOf('node-test/mixed.out.txt');
      expect(line).toMatchObject({ runner: 'node:test', passed: summary.passed, skipped: summary.skipped });
      expect(line.failed).toBe(summary.failed + summary.errors);
    },
  );

  it('node:test TAP with a test holding subtests and names with U+2028/U+2029: read to the end, counted as node counts', () => {
    const result = read('node-test/nested.tap');
    expect(counts(summarizeResult(result))).toEqual({
      passed: 4,
      failed: 2,
      skipped: 0,
      errors: 0,
      truncated: false,
      ok: false,
    });
    expect(summaryOf('node-test/nested.out.txt')).toMatchObject({ runner: 'node:test', passed: 4, failed: 2 });
    expect(result.tests.map((t) => [t.id, t.status])).toEqual([
      ['parent > child passes', 'passed'],
      ['parent > child fails', 'failed'],
      ['parent', 'failed'],
      ['a property named "line\u2028sep"', 'passed'],
      ['a property named "para\u2029graph"', 'passed'],
      ['after the separators', 'passed'],
    ]);
  });

  it('tape TAP: tape counts assertions and puts skipped and todo ones among its passes', () => {
    const summary = summarizeResult(read('tape/mixed.tap'));
    expect(counts(summary)).toEqual({ passed: 5, failed: 1, skipped: 2, errors: 0, truncated: false, ok: false });
    expect(summaryOf('tape/mixed.tap')).toMatchObject({
      runner: 'tape',
      unit: 'assertions',
      passed: summary.passed + summary.skipped,
      failed: summary.failed,
    });
  });

  it('tape that crashed mid-run: the stream has no plan, so it is truncated, names the test it stopped in, and prints no summary', () => {
    const result = read('tape/crash.tap');
    expect(counts(summarizeResult(result))).toEqual({
      passed: 3,
      failed: 0,
      skipped: 0,
      errors: 1,
      truncated: true,
      ok: false,
    });
    expect(result.errors[0]?.message).toMatch(/^the stream stops inside test "reads a property of undefined"/);
    expect(parseSummaryLine(readReport('tape/crash.tap'))).toBeNull();
  });

  it('pytest JUnit: a setup error is a failed test; pytest counts it as an error', () => {
    const summary = summarizeResult(read('pytest/mixed.xml'));
    expect(counts(summary)).toEqual({ passed: 5, failed: 3, skipped: 2, errors: 0, truncated: false, ok: false });
    const line = summaryOf('pytest/mixed.out.txt');
    expect(line).toMatchObject({ runner: 'pytest', passed: summary.passed, skipped: summary.skipped });
    expect(line.failed + line.errors).toBe(summary.failed);
  });

  it('pytest JUnit with a collection error: one error outside tests and nothing else', () => {
    const result = read('pytest/collection-error.xml', '/tmp/fixcycle-fixtures/pytest-collect');
    expect(counts(summarizeResult(result))).toEqual({
      passed: 0,
      failed: 0,
      skipped: 0,
      errors: 1,
      truncated: false,
      ok: false,
    });
    expect(result.errors[0]).toEqual({
      file: 'tests/test_broken.py',
      message: "collection failure: ModuleNotFoundError: No module named 'does_not_exist'",
    });
    expect(summaryOf('pytest/collection-error.out.txt')).toMatchObject({
      runner: 'pytest',
      errors: 1,
      passed: 0,
      failed: 0,
    });
  });

  it('go test -json: the package that did not build is an error; go’s package lines agree per package', () => {
    const result = read('go/mixed.jsonl');
    const summary = summarizeResult(result);
    expect(counts(summary)).toEqual({ passed: 5, failed: 3, skipped: 1, errors: 1, truncated: false, ok: false });
    const failedPackages = new Set(summary.failures.map((f) => f.file));
    const passedPackages = new Set(result.tests.map((t) => t.file).filter((p) => !failedPackages.has(p)));
    expect(summaryOf('go/mixed.out.txt')).toEqual({
      runner: 'go',
      unit: 'packages',
      passed: passedPackages.size,
      failed: failedPackages.size,
      errors: summary.errors,
      skipped: 0,
    });
  });

  it('cargo libtest JUnit (one document per binary): counts match cargo’s test result lines, the ignored test libtest leaves unlisted kept from its suite’s count', () => {
    const result = read('cargo/junit-concatenated.xml');
    expect(counts(summarizeResult(result))).toEqual({
      passed: 3,
      failed: 2,
      skipped: 1,
      errors: 0,
      truncated: false,
      ok: false,
    });
    expect(summaryOf('cargo/mixed.out.txt')).toMatchObject({ runner: 'cargo', passed: 3, failed: 2, skipped: 1 });
    expect(result.tests.filter((t) => t.status === 'skipped').map((t) => t.id)).toEqual([
      'test > skipped test 1 of 1 (counted by the suite, not listed)',
    ]);
  });

  it('cargo libtest JSON lines (--format json): every test with its status, counts equal to the test result lines', () => {
    const result = read('cargo/libtest-mixed.jsonl');
    expect(result.format).toBe('libtest-json');
    expect(counts(summarizeResult(result))).toEqual({
      passed: 3,
      failed: 2,
      skipped: 1,
      errors: 0,
      truncated: false,
      ok: false,
    });
    expect(summaryOf('cargo/mixed.out.txt')).toMatchObject({ runner: 'cargo', passed: 3, failed: 2, skipped: 1 });
    expect(result.tests.find((t) => t.id === 'tests::multiplies_wrongly')).toMatchObject({
      status: 'failed',
      file: 'src/lib.rs',
      message: expect.stringMatching(
        /panicked at src\/lib\.rs:9:31:\nassertion `left == right` failed\n {2}left: 6\n right: 7/,
      ),
    });
    expect(result.tests.find((t) => t.id === 'tests::divides_later')?.status).toBe('skipped');
    // A stream cut inside a binary's suite is cut off.
    const cut = readReport('cargo/libtest-mixed.jsonl').split('\n').slice(0, 6).join('\n');
    const outcome = parseReport(cut);
    expect(outcome.ok && outcome.result.truncated).toBe(true);
  });

  it.each([
    ['vitest/passing.json', 'vitest/passing.out.txt'],
    ['jest/passing.json', 'jest/passing.out.txt'],
    ['mocha/passing.json', 'mocha/passing.out.txt'],
    ['node-test/passing.xml', 'node-test/passing.out.txt'],
    ['node-test/passing.tap', 'node-test/passing.out.txt'],
    ['tape/passing.tap', 'tape/passing.tap'],
    ['go/passing.jsonl', 'go/passing.out.txt'],
  ])('a passing run reads as ok: %s', (report, output) => {
    const summary = summarizeResult(read(report));
    expect(counts(summary)).toEqual({ passed: 2, failed: 0, skipped: 0, errors: 0, truncated: false, ok: true });
    const line = summaryOf(output);
    expect(line.failed + line.errors).toBe(0);
    expect(line.passed).toBe(line.unit === 'packages' ? 1 : 2);
  });

  it.each(['vitest/bad-config.out.txt', 'mocha/import-error.out.txt', 'cargo/compile-error.out.txt'])(
    'a run that crashed before reporting has no summary line either: %s',
    (output) => {
      expect(parseSummaryLine(readReport(output))).toBeNull();
    },
  );
});
