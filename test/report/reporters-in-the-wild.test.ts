import { describe, expect, it } from 'vitest';
import { parseSummaryLine, summarizeResult } from '../../src/engine/report/index.js';
import { countsOf, readParsed, readReport } from './fixture.js';

// Real reports written by mocha-junit-reporter 2.2.1 (mocha 11.8), jest-junit 17.0 (jest 30.5) and tape 5.10 on the
// test files beside them (`*.js.txt`), each compared with the runner's own summary; see the fixtures README.
const read = readParsed;
const counts = countsOf;

describe('mocha-junit-reporter', () => {
  it('keeps the pending tests only the root counts, and a failed hook is an error as in mocha’s JSON: counts equal mocha’s spec lines', () => {
    const result = read('mocha/junit-reporter-mixed.xml', '/tmp/fixcycle-fixtures/mocha-junit');
    const summary = summarizeResult(result);
    expect(counts(summary)).toEqual({ passed: 3, failed: 2, skipped: 4, errors: 1, truncated: false, ok: false });
    // 3 passing, 4 pending, 3 failing (mocha counts the hook among the failing)
    const line = parseSummaryLine(readReport('mocha/junit-reporter-mixed.out.txt'));
    expect(line).toMatchObject({ runner: 'mocha', passed: 3, skipped: 4, failed: summary.failed + summary.errors });
    expect(result.errors).toEqual([
      { file: 'test/db.test.js', message: 'database "before all" hook for "reads a row": connection refused' },
    ]);
    // The suite whose hook failed holds tests that never ran: mocha counts them nowhere, neither do we.
    expect(result.tests.filter((t) => t.status === 'skipped').map((t) => t.id)).toEqual([
      'test/math.test.js::math > skipped test 1 of 2 (counted by the run, not listed)',
      'test/math.test.js::math > skipped test 2 of 2 (counted by the run, not listed)',
      'test/math.test.js::skipped block > skipped test 1 of 2 (counted by the run, not listed)',
      'test/math.test.js::skipped block > skipped test 2 of 2 (counted by the run, not listed)',
    ]);
  });

  it('with includePending the pending tests are listed, and counted once', () => {
    const summary = summarizeResult(read('mocha/junit-reporter-pending.xml'));
    expect(counts(summary)).toEqual({ passed: 3, failed: 2, skipped: 4, errors: 1, truncated: false, ok: false });
  });
});

describe('jest-junit', () => {
  it('a todo test it lists as a plain case (left out of its suite’s tests count) is skipped, as jest counts it', () => {
    const result = read('jest/junit-suite-errors.xml');
    expect(counts(summarizeResult(result))).toEqual({
      passed: 3,
      failed: 1,
      skipped: 2,
      errors: 0,
      truncated: false,
      ok: false,
    });
    // Tests: 1 failed, 1 skipped, 1 todo, 3 passed, 6 total
    expect(parseSummaryLine(readReport('jest/junit-suite-errors.out.txt'))).toMatchObject({
      runner: 'jest',
      passed: 3,
      failed: 1,
      skipped: 2,
    });
    expect(result.tests.find((t) => t.name === 'math subtracts someday')?.status).toBe('skipped');
    // Without reportTestSuiteErrors jest-junit drops the suites that failed to run: nothing of them is in the file.
    expect(result.errors).toEqual([]);
  });

  it('suites that failed to run (reportTestSuiteErrors) are one error each, with jest’s cause, as jest’s Test Suites line counts them', () => {
    const result = read('jest/junit-suite-errors-reported.xml');
    expect(counts(summarizeResult(result))).toEqual({
      passed: 3,
      failed: 1,
      skipped: 2,
      errors: 2,
      truncated: false,
      ok: false,
    });
    expect(readReport('jest/junit-suite-errors.out.txt')).toMatch(/^Test Suites: 3 failed, 1 passed, 4 total$/m);
    expect(result.errors).toEqual([
      {
        file: 'test/throws-on-load.test.js',
        message: "test suite failed to run: TypeError: Cannot read properties of undefined (reading 'port')",
      },
      {
        file: 'test/broken-import.test.js',
        message: "test suite failed to run: Cannot find module './does-not-exist.js' from 'test/broken-import.test.js'",
      },
    ]);
  });
});

describe('tape cut by a throw', () => {
  it('stdout only: the assertions before the throw passed, the stream is cut, and the test it stopped in is named', () => {
    const result = read('tape/throw-cut.tap');
    expect(counts(summarizeResult(result))).toEqual({
      passed: 3,
      failed: 0,
      skipped: 0,
      errors: 1,
      truncated: true,
      ok: false,
    });
    expect(result.tests.map((t) => t.id)).toEqual([
      'parses > adds',
      'parses > is truthy',
      'reads the config > an object',
    ]);
    expect(result.errors).toEqual([
      {
        message:
          'the stream stops inside test "reads the config" (the process crashed or exited there; its error went to stderr)',
      },
    ]);
    // tape printed no summary: the stream ends at the throw, which went to stderr.
    expect(parseSummaryLine(readReport('tape/throw-cut.tap'))).toBeNull();
    expect(readReport('tape/throw-cut.err.txt')).toContain(
      "TypeError: Cannot read properties of undefined (reading 'port')",
    );
  });

  it('stdout and stderr together: the error carries the thrown error and its place', () => {
    const result = read('tape/throw-cut-combined.tap', '/tmp/fixcycle-fixtures/tape-throw');
    expect(counts(summarizeResult(result))).toEqual({
      passed: 3,
      failed: 0,
      skipped: 0,
      errors: 1,
      truncated: true,
      ok: false,
    });
    expect(result.errors).toEqual([
      {
        file: 'test/a.js',
        message:
          'the stream stops inside test "reads the config": TypeError: Cannot read properties of undefined (reading \'port\') at test/a.js:10',
      },
    ]);
  });

  it('an async test that rejects is caught by tape: a failed assertion, and the run goes on to its summary', () => {
    const result = read('tape/async-throw.tap');
    expect(counts(summarizeResult(result))).toEqual({
      passed: 3,
      failed: 1,
      skipped: 0,
      errors: 0,
      truncated: false,
      ok: false,
    });
    expect(parseSummaryLine(readReport('tape/async-throw.tap'))).toMatchObject({
      runner: 'tape',
      passed: 3,
      failed: 1,
    });
  });
});
