import { describe, expect, it } from 'vitest';
import { chooseStrategy, type StrategyInput } from '../../src/engine/decisions/strategy.js';

const base: StrategyInput = { iteration: 3, passRate: 70, lastRegressed: false, similarity: 0, stuckShare: 0 };

describe('chooseStrategy', () => {
  it.each([
    ['surgical after a regression even in iteration 1', { iteration: 1, lastRegressed: true }, 'surgical', /regressed/],
    [
      'surgical after a regression late, despite similar failures',
      { iteration: 5, passRate: 90, similarity: 0.9, lastRegressed: true },
      'surgical',
      /rolled back/,
    ],
    [
      'conservative in iteration 1',
      { iteration: 1, passRate: 90, similarity: 0.95 },
      'conservative',
      /iteration 1 of the first 2/,
    ],
    ['conservative in iteration 2', { iteration: 2 }, 'conservative', /iteration 2/],
    ['aggressive above 80% with similar failures', { passRate: 85, similarity: 0.75 }, 'aggressive', /batch fix/],
    ['conservative at exactly 80%', { passRate: 80, similarity: 0.9 }, 'conservative', /80% ≤ 80%/],
    ['conservative when similarity is exactly 0.7', { passRate: 90, similarity: 0.7 }, 'conservative', /differ/],
    ['conservative at a low pass rate', { passRate: 40, similarity: 0.99 }, 'conservative', /40%/],
  ] as const)('%s', (_name, overrides, strategy, reason) => {
    const choice = chooseStrategy({ ...base, ...overrides });
    expect(choice.strategy).toBe(strategy);
    expect(choice.reason).toMatch(reason);
  });

  it('switches away from conservative when more than half the failures are stuck', () => {
    const choice = chooseStrategy({ ...base, stuckShare: 0.6, previous: 'conservative' });
    expect(choice).toMatchObject({ strategy: 'aggressive' });
    expect(choice.reason).toMatch(/60% of the failures are stuck after conservative/);
  });

  it('switches away from aggressive when it keeps failing on stuck tests', () => {
    const choice = chooseStrategy({ ...base, passRate: 90, similarity: 0.9, stuckShare: 1, previous: 'aggressive' });
    expect(choice.strategy).toBe('conservative');
  });

  it('keeps the strategy when exactly half the failures are stuck', () => {
    expect(chooseStrategy({ ...base, stuckShare: 0.5, previous: 'conservative' }).strategy).toBe('conservative');
  });

  it('does not apply the stuck rule when the base strategy already differs from the last one', () => {
    expect(
      chooseStrategy({ ...base, passRate: 90, similarity: 0.9, stuckShare: 1, previous: 'conservative' }).strategy,
    ).toBe('aggressive');
  });

  it('prefers surgical over the stuck rule', () => {
    expect(chooseStrategy({ ...base, lastRegressed: true, stuckShare: 1, previous: 'surgical' }).strategy).toBe(
      'surgical',
    );
  });
});
