import { describe, expect, it } from 'vitest';
import { Budget, parseBudget } from '../../src/engine/agents/budget.js';

describe('parseBudget', () => {
  it.each([
    ['20 calls', { calls: 20 }],
    ['1 call', { calls: 1 }],
    ['30m', { minutes: 30 }],
    ['45 minutes', { minutes: 45 }],
    ['1.5h', { minutes: 90 }],
    ['$2', { usd: 2 }],
    ['2.50 usd', { usd: 2.5 }],
    ['20 calls, 30m, $2', { calls: 20, minutes: 30, usd: 2 }],
    ['10 calls and $1', { calls: 10, usd: 1 }],
  ])('reads %s', (text, limits) => {
    expect(parseBudget(text)).toEqual({ ok: true, limits });
  });

  it.each([
    ['20', /cannot read "20"/],
    ['lots', /cannot read "lots"/],
    ['0 calls', /above 0/],
    ['', /empty/],
  ])('refuses %j with a hint', (text, error) => {
    const parsed = parseBudget(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.error).toMatch(error);
      expect(parsed.error).toMatch(/"20 calls", "30m"/);
    }
  });
});

describe('Budget', () => {
  it('says which limit is reached, by calls', () => {
    const budget = new Budget({ calls: 2 });
    budget.record({ durationMs: 1000 });
    expect(budget.exceeded()).toBeNull();
    budget.record({ durationMs: 1000 });
    expect(budget.exceeded()).toBe('budget reached: 2 of 2 agent calls');
  });

  it('adds up agent minutes', () => {
    const budget = new Budget({ minutes: 1 }, [{ durationMs: 45_000 }]);
    expect(budget.exceeded()).toBeNull();
    budget.record({ durationMs: 20_000 });
    expect(budget.exceeded()).toBe('budget reached: 1.1 of 1 agent minutes');
  });

  it('counts only the cost the CLIs report, and says so', () => {
    const budget = new Budget({ usd: 0.1 });
    budget.record({ durationMs: 1, costUsd: 0.06, tokens: 1000 });
    budget.record({ durationMs: 1 });
    expect(budget.exceeded()).toBeNull();
    budget.record({ durationMs: 1, costUsd: 0.05, tokens: 500 });
    expect(budget.exceeded()).toBe('budget reached: $0.11 of $0.10 (cost reported by 2 of 3 calls)');
    expect(budget.describe()).toBe(
      '3 agent calls, 0 agent minutes, $0.11 of $0.1 (reported by 2 of 3 calls), 1500 tokens',
    );
    expect(budget.spent()).toMatchObject({ calls: 3, usd: 0.11, costedCalls: 2, tokens: 1500 });
  });
});
