import { describe, expect, it } from 'vitest';
import { parseReport, parseSummaryLine, summarizeResult } from '../../src/engine/report/index.js';
import { countsOf, readParsed, readReport } from './fixture.js';

// Reports written by the real pytest-json-report 1.5.0 (with pytest-metadata, Debian's pytest 7.2.1) on
// pytest/json-report-test_math.py.txt; see the fixtures README.
const read = readParsed;
const counts = countsOf;

describe('pytest-json-report', () => {
  it('counts as pytest’s closing line does: xpassed among the passed, xfailed among the skipped, setup errors failed, teardown and collection errors beside', () => {
    const result = read('pytest/json-report-mixed.json');
    expect(result.format).toBe('pytest-json');
    const summary = summarizeResult(result);
    expect(counts(summary)).toEqual({ passed: 7, failed: 6, skipped: 5, errors: 2, truncated: false, ok: false });
    // ==== 5 failed, 6 passed, 3 skipped, 2 xfailed, 1 xpassed, 3 errors in 0.24s ====
    const line = parseSummaryLine(readReport('pytest/json-report-mixed.out.txt'));
    expect(line).toMatchObject({ runner: 'pytest', passed: 7, failed: 5, skipped: 5, errors: 3 });
    expect(line!.failed + line!.errors).toBe(summary.failed + summary.errors);
  });

  it('ids follow the node ids (classes, parametrized ids, unittest cases) in the form pytest’s JUnit gives them', () => {
    const result = read('pytest/json-report-mixed.json');
    const byId = new Map(result.tests.map((t) => [t.id, t]));
    expect(byId.get('tests/test_math.py::test_add_cases[strings <&>]')).toMatchObject({
      status: 'passed',
      file: 'tests/test_math.py',
      name: 'test_add_cases[strings <&>]',
    });
    expect(byId.get('tests/test_math.py::test_add_cases[wrong]')).toMatchObject({
      status: 'failed',
      message: 'assert 4 == 5',
    });
    expect(byId.get('tests/test_math.py::TestWords > test_split_wrongly')?.status).toBe('failed');
    expect(byId.get('tests/test_math.py::WordsCase > test_strip_wrongly')).toMatchObject({
      status: 'failed',
      message: expect.stringContaining("AssertionError: 'x' != ' x'"),
    });
    expect(byId.get('tests/test_math.py::WordsCase > test_skipped')?.status).toBe('skipped');
    expect(byId.get('tests/test_math.py::WordsCase > test_expected_failure')?.status).toBe('skipped');
    expect(byId.get('tests/test_math.py::test_rounds_known_bug')?.status).toBe('skipped');
    expect(byId.get('tests/test_math.py::test_fixed_since')?.status).toBe('passed');
    expect(byId.get('tests/test_math.py::test_strict_xpass')).toMatchObject({
      status: 'failed',
      message: '[XPASS(strict)] must still fail',
    });
    expect(byId.get('tests/test_math.py::test_multiplies_wrongly')).toMatchObject({
      message: 'assert (2 * 3) == 7',
      stack: expect.stringContaining('tests/test_math.py:16: AssertionError'),
    });
    expect(result.tests).toHaveLength(18);
  });

  it('a fixture that fails in setup fails its test; one that fails in teardown is an error naming the test', () => {
    const result = read('pytest/json-report-mixed.json');
    expect(result.tests.find((t) => t.name === 'test_needs_resource')).toMatchObject({
      status: 'failed',
      message: 'error in setup: RuntimeError: database is not reachable',
    });
    expect(result.tests.find((t) => t.name === 'test_teardown_fails')?.status).toBe('passed');
    expect(result.errors).toEqual([
      {
        file: 'tests/test_math.py',
        message:
          'error in teardown of tests/test_math.py::test_teardown_fails: OSError: could not remove the temp folder',
      },
      {
        file: 'tests/test_broken.py',
        message: "collection failure: ModuleNotFoundError: No module named 'does_not_exist'",
      },
    ]);
  });

  it('a collection error that interrupts the session: one error outside tests, as pytest says', () => {
    const result = read('pytest/json-report-collection-error.json');
    expect(counts(summarizeResult(result))).toEqual({
      passed: 0,
      failed: 0,
      skipped: 0,
      errors: 1,
      truncated: false,
      ok: false,
    });
    expect(result.errors).toEqual([
      {
        file: 'tests/test_broken.py',
        message: "collection failure: ModuleNotFoundError: No module named 'does_not_exist'",
      },
    ]);
    expect(parseSummaryLine(readReport('pytest/json-report-collection-error.out.txt'))).toMatchObject({
      runner: 'pytest',
      errors: 1,
      passed: 0,
      failed: 0,
    });
  });

  it('a passing run (deselected tests are not counted) reads as ok', () => {
    const result = read('pytest/json-report-passing.json');
    expect(counts(summarizeResult(result))).toEqual({
      passed: 2,
      failed: 0,
      skipped: 0,
      errors: 0,
      truncated: false,
      ok: true,
    });
    expect(parseSummaryLine(readReport('pytest/json-report-passing.out.txt'))).toMatchObject({
      runner: 'pytest',
      passed: 2,
      failed: 0,
    });
  });

  it('paths stay relative to the project when it is given; a summary-only report says how to get the tests', () => {
    expect(read('pytest/json-report-mixed.json', '/tmp/fixcycle-fixtures').tests[0]?.file).toBe(
      'pytest-json/tests/test_math.py',
    );
    const summaryOnly = JSON.parse(readReport('pytest/json-report-passing.json')) as Record<string, unknown>;
    delete summaryOnly.tests;
    delete summaryOnly.collectors;
    const outcome = parseReport(JSON.stringify(summaryOnly));
    expect(outcome).toEqual({
      ok: false,
      error: expect.stringContaining('rerun pytest without --json-report-summary'),
    });
  });
});
