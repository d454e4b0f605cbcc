import { describe, expect, it } from 'vitest';
import { brokenByFix, detectRegression } from '../../src/engine/decisions/regression.js';
import type { Failure } from '../../src/engine/types.js';
import { findStuckTests, stuckShare } from '../../src/engine/decisions/stuck.js';

describe('detectRegression', () => {
  it.each([
    [80, 69.9, true],
    [80, 70, false],
    [80, 75, false],
    [50, 90, false],
    [100, 0, true],
    [10.5, 0.4, true],
  ] as const)('%d%% -> %d%% regressed: %s', (before, after, regressed) => {
    expect(detectRegression({ before, after }).regressed).toBe(regressed);
  });

  it('reports the drop and its reason', () => {
    expect(detectRegression({ before: 90, after: 70 })).toMatchObject({
      drop: 20,
      reason: expect.stringMatching(/dropped 20 points \(90% → 70%\)/),
    });
  });

  it('calls a fix that broke a passing test a regression, whatever the drop (91.18% → 82.35%, 3 tests broken)', () => {
    const check = detectRegression({ before: 91.18, after: 82.35, broken: ['t::a', 't::b', 't::c'] });
    expect(check).toMatchObject({ regressed: true, drop: 8.83, broken: ['t::a', 't::b', 't::c'] });
    expect(check.reason).toBe(
      'the fix broke 3 test(s) that passed before it (t::a, t::b, t::c; pass rate 91.18% → 82.35%)',
    );
  });

  it('calls a fix that raised the pass rate but broke one passing test a regression', () => {
    expect(detectRegression({ before: 50, after: 75, broken: ['t::a'] })).toMatchObject({ regressed: true, drop: -25 });
  });

  it('keeps the 10-point floor when no passing test broke (a new error outside the tests)', () => {
    expect(detectRegression({ before: 80, after: 60, broken: [] })).toMatchObject({ regressed: true, broken: [] });
    expect(detectRegression({ before: 80, after: 75, broken: [] }).regressed).toBe(false);
  });
});

describe('brokenByFix', () => {
  const failure = (id: string, extra: Partial<Failure> = {}): Failure => ({
    id,
    name: id,
    message: 'failed',
    criticality: 'medium',
    criticality_source: 'default',
    ...extra,
  });

  it('names only failures that passed before, leaving out excused (flaky) ones and ones this machine cannot run', () => {
    const broken = brokenByFix({
      passedBefore: new Set(['a', 'b', 'c', 'd']),
      failuresAfter: [
        failure('a'),
        failure('b'),
        failure('still-failing'),
        failure('c', { notHere: { what: 'a browser', remedy: 'install one' } }),
        failure('d'),
      ],
      excused: new Set(['d']),
    });
    expect(broken.map((f) => f.id)).toEqual(['a', 'b']);
  });

  it('counts a passing test the fix made vanish (deleted or no longer loaded)', () => {
    const broken = brokenByFix({
      passedBefore: new Set(['a']),
      failuresAfter: [failure('a', { missing: true })],
      excused: new Set(),
    });
    expect(broken.map((f) => f.id)).toEqual(['a']);
  });
});

describe('findStuckTests', () => {
  it('marks tests failing in the last 3 iterations in a row', () => {
    expect(
      findStuckTests([
        ['a', 'b'],
        ['a', 'b', 'c'],
        ['a', 'c'],
      ]),
    ).toEqual(['a']);
  });
  it('needs three iterations', () => {
    expect(findStuckTests([['a'], ['a']])).toEqual([]);
  });
  it('resets when a test passed in between', () => {
    expect(findStuckTests([['a'], ['a'], [], ['a'], ['a']])).toEqual([]);
  });
  it('looks only at the most recent run of iterations', () => {
    expect(findStuckTests([['x'], ['a'], ['a'], ['a']])).toEqual(['a']);
  });
  it('honours another threshold', () => {
    expect(findStuckTests([['a'], ['a']], 2)).toEqual(['a']);
  });
});

describe('stuckShare', () => {
  it.each([
    [['a', 'b'], ['a'], 0.5],
    [['a', 'b', 'c'], ['a', 'b'], 2 / 3],
    [[], ['a'], 0],
    [['a'], [], 0],
  ] as const)('%j with stuck %j -> %d', (failing, stuck, share) => {
    expect(stuckShare(failing, stuck)).toBeCloseTo(share);
  });
});
