import { describe, expect, it } from 'vitest';
import { buildTestResults } from '../../src/engine/decisions/test-results.js';
import { knownTests } from '../../src/engine/decisions/union-results.js';
import type { TestCase } from '../../src/engine/types.js';

const t = (id: string, status: TestCase['status']): TestCase => ({
  id,
  name: id,
  status,
  ...(status === 'failed' ? { message: 'boom' } : {}),
});

function results(known: { id: string; name: string }[], tests: TestCase[]) {
  const union = knownTests(known, tests);
  const built = buildTestResults({
    baseline: union.tests,
    result: { format: 'tap', tests, errors: [], truncated: false },
    scope: 'full',
    source: 'report',
    exitCode: 1,
    timedOut: false,
    durationMs: 1,
    outputTail: '',
    criticality: { rules: [] },
  });
  return { union, built };
}

describe('pass rates over the baseline and every test seen since', () => {
  it('counts a test reported for the first time, so a failure among new tests is never 100%', () => {
    const { union, built } = results(
      [
        { id: 'a', name: 'a' },
        { id: 'b', name: 'b' },
      ],
      [t('a', 'passed'), t('b', 'passed'), t('c', 'failed')],
    );
    expect(union.added.map((x) => x.id)).toEqual(['c']);
    expect(built).toMatchObject({ total: 3, passed: 2, failed: 1, pass_rate: 66.67 });
  });

  it('keeps a baseline test that is no longer reported, as failing', () => {
    const { built } = results(
      [
        { id: 'a', name: 'a' },
        { id: 'b', name: 'b' },
      ],
      [t('a', 'passed'), t('c', 'passed')],
    );
    expect(built).toMatchObject({ total: 3, passed: 2, pass_rate: 66.67 });
    expect(built.failures).toMatchObject([{ id: 'b', missing: true }]);
  });

  it('equals the runner’s own counts when the same tests run again', () => {
    const { union, built } = results(
      [
        { id: 'a', name: 'a' },
        { id: 'b', name: 'b' },
      ],
      [t('a', 'passed'), t('b', 'failed')],
    );
    expect(union.added).toEqual([]);
    expect(built).toMatchObject({ total: 2, passed: 1, failed: 1 });
  });

  it('leaves a test that is skipped when first seen out of the rate', () => {
    const { built } = results([{ id: 'a', name: 'a' }], [t('a', 'passed'), t('s', 'skipped')]);
    expect(built).toMatchObject({ total: 2, passed: 1, skipped: 1, pass_rate: 100 });
  });
});
