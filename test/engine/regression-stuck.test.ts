import { describe, expect, it } from 'vitest';
import { detectRegression } from '../../src/engine/decisions/regression.js';
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
    expect(detectRegression(before, after).regressed).toBe(regressed);
  });

  it('reports the drop and its reason', () => {
    expect(detectRegression(90, 70)).toMatchObject({
      drop: 20,
      reason: expect.stringMatching(/dropped 20 points \(90% → 70%\)/),
    });
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
