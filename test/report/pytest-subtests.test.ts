import { describe, expect, it } from 'vitest';
import { buildTestResults } from '../../src/engine/decisions/test-results.js';
import { parseSummaryLine, summarizeResult } from '../../src/engine/report/index.js';
import type { NormalizedResult } from '../../src/engine/types.js';
import { readParsed, readReport } from './fixture.js';

// pytest 9.0's JUnit of a unittest TestCase whose tests run subTest and call skipTest in some subtests
// (pytest/subtests-test_codes.py.txt), on the broken and on the fixed code.
const ROOT = '/tmp/fixcycle-fixtures/pytest-subtests';

function closingLine(path: string) {
  const line = parseSummaryLine(readReport(path));
  if (!line) throw new Error(`${path}: no closing line`);
  return line;
}

function resultsOf(result: NormalizedResult, baseline: NormalizedResult) {
  return buildTestResults({
    baseline: baseline.tests.map(({ id, name, status }) => ({ id, name, skipped: status === 'skipped' })),
    result,
    scope: 'full',
    source: 'report',
    exitCode: 0,
    timedOut: false,
    durationMs: 10,
    outputTail: '',
    criticality: { rules: [] },
  });
}

describe('pytest subtests in JUnit (several <skipped> and <failure> in one test case)', () => {
  it('counts a broken run as pytest does: the tests that ran pass, each failed subtest fails, skips left out', () => {
    const broken = readParsed('pytest/subtests-broken.xml', ROOT);
    const summary = summarizeResult(broken);
    expect(closingLine('pytest/subtests-broken.out.txt')).toMatchObject({ passed: 3, failed: 1, skipped: 1 });
    expect(summary).toMatchObject({ passed: 3, failed: 1, skipped: 1, errors: 0 });
    expect(broken.tests.find((t) => t.status === 'failed')).toMatchObject({
      id: 'tests.test_codes.TestEncode::test_each_case > failed subtest 1',
      message: expect.stringContaining("AssertionError: 'e9' != 'c3a9'"),
    });
    expect(broken.tests.find((t) => t.name === 'test_platform_cases')?.status).toBe('passed');
  });

  it('never invents unlisted skipped tests from the suite count of skipped subtests', () => {
    const fixed = readParsed('pytest/subtests-fixed.xml', ROOT);
    expect(fixed.tests.map((t) => t.name).filter((n) => /not listed/.test(n))).toEqual([]);
  });

  it('ends the session at 100% once the failing subtests pass: their one skip left is no newly skipped test', () => {
    const broken = readParsed('pytest/subtests-broken.xml', ROOT);
    const fixed = readParsed('pytest/subtests-fixed.xml', ROOT);
    // Alone, a case with one <skipped> is a skipped test (pytest writes a whole skip the same way) ...
    expect(fixed.tests.find((t) => t.name === 'test_each_case')?.status).toBe('skipped');
    // ... but the baseline shows it ran subtests: it passed, as pytest's closing line says.
    const results = resultsOf(fixed, broken);
    expect(closingLine('pytest/subtests-fixed.out.txt')).toMatchObject({ passed: 3, failed: 0, skipped: 1 });
    expect(results).toMatchObject({ passed: 3, failed: 0, skipped: 1, pass_rate: 100 });
  });

  it('still counts a test skipped whole, where the baseline ran it, as not passing', () => {
    const broken = readParsed('pytest/subtests-broken.xml', ROOT);
    const fixed = readParsed('pytest/subtests-fixed.xml', ROOT);
    const plainSkipped = fixed.tests.map((t) => (t.name === 'test_plain' ? { ...t, status: 'skipped' as const } : t));
    const results = resultsOf({ ...fixed, tests: plainSkipped }, broken);
    expect(results.failures.map((f) => f.id)).toEqual(['tests.test_codes.TestEncode::test_plain']);
  });
});
