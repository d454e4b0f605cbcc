import { describe, expect, it } from 'vitest';
import { summarizeResult } from '../../src/engine/report/index.js';
import type { NormalizedResult, TestCase } from '../../src/engine/types.js';

const test = (name: string, status: TestCase['status'], message?: string): TestCase => ({
  id: `f::${name}`,
  name,
  file: 'f',
  status,
  ...(message ? { message } : {}),
});
const result = (tests: TestCase[], extra: Partial<NormalizedResult> = {}): NormalizedResult => ({
  format: 'junit',
  tests,
  errors: [],
  truncated: false,
  ...extra,
});

describe('summarizeResult', () => {
  it('is ok when tests passed and nothing failed, errored or was cut short', () => {
    expect(summarizeResult(result([test('a', 'passed'), test('b', 'skipped')]))).toEqual({
      passed: 1,
      failed: 0,
      skipped: 1,
      errors: 0,
      truncated: false,
      ok: true,
      failures: [],
    });
  });

  it('lists each failure with its id, file and message', () => {
    const summary = summarizeResult(result([test('a', 'passed'), test('b', 'failed', 'boom'), test('c', 'failed')]));
    expect(summary).toMatchObject({ passed: 1, failed: 2, ok: false });
    expect(summary.failures).toEqual([
      { id: 'f::b', name: 'b', file: 'f', message: 'boom' },
      { id: 'f::c', name: 'c', file: 'f', message: 'failed' },
    ]);
  });

  it.each([
    ['an error outside tests', result([test('a', 'passed')], { errors: [{ message: 'import failed' }] })],
    ['a truncated report', result([test('a', 'passed')], { truncated: true })],
    ['an empty report', result([])],
    ['a report where every test was skipped', result([test('a', 'skipped')])],
  ])('is not ok with %s', (_what, input) => {
    expect(summarizeResult(input).ok).toBe(false);
  });
});
