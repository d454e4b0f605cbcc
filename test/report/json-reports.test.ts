import { describe, expect, it } from 'vitest';
import { parseReport, type ReportFormat } from '../../src/engine/report/index.js';
import type { NormalizedResult } from '../../src/engine/types.js';

function read(report: unknown, format: ReportFormat): NormalizedResult {
  const outcome = parseReport(JSON.stringify(report), format);
  if (!outcome.ok) throw new Error(outcome.error);
  return outcome.result;
}

const assertion = (title: string, status: string, extra: Record<string, unknown> = {}) => ({
  ancestorTitles: ['s'],
  title,
  status,
  failureMessages: [],
  ...extra,
});

describe('jest and vitest JSON', () => {
  it('reads a jest suite with testExecError as an error outside tests', () => {
    const result = read(
      {
        numRuntimeErrorTestSuites: 1,
        testResults: [
          {
            name: '/r/a.test.js',
            status: 'failed',
            assertionResults: [],
            testExecError: { message: 'SyntaxError: Unexpected token' },
          },
        ],
      },
      'jest-json',
    );
    expect(result.errors).toEqual([{ file: '/r/a.test.js', message: 'SyntaxError: Unexpected token' }]);
  });

  it('adds jest runtime errors that left no trace in testResults', () => {
    const result = read({ numRuntimeErrorTestSuites: 2, testResults: [] }, 'jest-json');
    expect(result.errors).toEqual([{ message: '2 test suite(s) failed to run (jest numRuntimeErrorTestSuites)' }]);
  });

  it('treats an interrupted jest run as truncated', () => {
    expect(read({ wasInterrupted: true, testResults: [] }, 'jest-json').truncated).toBe(true);
  });

  it('counts a jest retried test that failed every time as failed with its retries', () => {
    const result = read(
      {
        testResults: [
          {
            name: 'a',
            status: 'failed',
            assertionResults: [assertion('t', 'failed', { invocations: 3, failureMessages: ['Error: no'] })],
          },
        ],
      },
      'jest-json',
    );
    expect(result.tests[0]).toMatchObject({ status: 'failed', retries: 2, message: 'Error: no' });
  });

  it('never counts an unknown status as a pass', () => {
    const result = read(
      { numTotalTests: 1, testResults: [{ name: 'a', status: 'passed', assertionResults: [assertion('t', 'weird')] }] },
      'vitest-json',
    );
    expect(result.tests[0]).toMatchObject({ status: 'failed', message: 'failed with status "weird"' });
  });

  it('reads a vitest file that failed with no tests as an error, but not one whose tests failed', () => {
    const result = read(
      {
        numTotalTests: 1,
        testResults: [
          { name: '/r/broken.test.ts', status: 'failed', message: 'Failed to load url ./x', assertionResults: [] },
          {
            name: '/r/a.test.ts',
            status: 'failed',
            message: '',
            assertionResults: [assertion('t', 'failed', { failureMessages: ['AssertionError: x'] })],
          },
        ],
      },
      'vitest-json',
    );
    expect(result.errors).toEqual([{ file: '/r/broken.test.ts', message: 'Failed to load url ./x' }]);
    expect(result.tests.map((t) => t.id)).toEqual(['/r/a.test.ts::s > t']);
  });

  it.each([
    ['jest-json', '{"numTotalTests": 3}', /no testResults list/],
    ['vitest-json', '[1, 2]', /no testResults list/],
    ['mocha-json', '{"tests": []}', /no stats and tests/],
    ['jest-json', '{"testResults": [', /not valid JSON .*cut off/],
    ['vitest-json', '   ', /empty/],
  ] as const)('refuses a %s document that is not one: %s', (format, text, reason) => {
    const outcome = parseReport(text, format);
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.error).toMatch(reason);
  });
});

describe('mocha JSON', () => {
  it('reads pending tests as skipped and hook failures as errors outside tests', () => {
    const test = (title: string, fullTitle: string, err: Record<string, unknown> = {}) => ({
      title,
      fullTitle,
      file: '/r/t.js',
      duration: 1,
      currentRetry: 0,
      err,
    });
    const result = read(
      {
        stats: { tests: 3 },
        tests: [
          test('a', 'suite a'),
          test('b', 'suite b', { message: 'boom', stack: 'Error: boom\n    at x' }),
          test('c', 'suite c'),
        ],
        pending: [test('c', 'suite c')],
        failures: [
          test('b', 'suite b', { message: 'boom' }),
          test('"after each" hook for "c"', 'suite "after each" hook for "c"', { message: 'cleanup failed' }),
        ],
        passes: [test('a', 'suite a')],
      },
      'mocha-json',
    );
    expect(result.tests.map((t) => [t.id, t.status, t.message])).toEqual([
      ['/r/t.js::suite > a', 'passed', undefined],
      ['/r/t.js::suite > b', 'failed', 'Error: boom'],
      ['/r/t.js::suite > c', 'skipped', undefined],
    ]);
    expect(result.errors).toEqual([{ file: '/r/t.js', message: 'suite "after each" hook for "c": cleanup failed' }]);
  });
});
