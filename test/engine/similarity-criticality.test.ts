import { describe, expect, it } from 'vitest';
import { failureSimilarity, messageSimilarity, normalizeMessage } from '../../src/engine/decisions/similarity.js';
import { resolveCriticality } from '../../src/engine/decisions/criticality.js';

describe('similarity', () => {
  it('normalizes numbers, strings and paths away', () => {
    expect(normalizeMessage("Expected 3 to equal 4 in '/a/b.js'")).toBe(
      normalizeMessage("Expected 10 to equal 12 in '/c/d.js'"),
    );
  });
  it('drops stack frames', () => {
    expect(normalizeMessage('boom\n    at foo (x.js:1:2)')).toBe('boom');
  });
  it('scores the same failure with other values as 1', () => {
    expect(messageSimilarity('expected 1.5 to be 2', 'expected 3.25 to be 4')).toBe(1);
  });
  it('scores unrelated failures low', () => {
    expect(
      messageSimilarity('TypeError: cannot read properties of undefined', 'AssertionError: lists differ'),
    ).toBeLessThan(0.5);
  });
  it('measures a set: alike above 0.7, mixed below', () => {
    const alike = [
      'Expected "1.00 USD" got "1.0 USD"',
      'Expected "2.50 USD" got "2.5 USD"',
      'Expected "3.10 USD" got "3.1 USD"',
    ];
    expect(failureSimilarity(alike)).toBeGreaterThan(0.7);
    expect(failureSimilarity([...alike, 'ECONNREFUSED 127.0.0.1:5432', 'TypeError: x is not a function'])).toBeLessThan(
      0.7,
    );
  });
  it('gives a single failure no pattern', () => {
    expect(failureSimilarity(['only one'])).toBe(0);
  });
});

describe('resolveCriticality', () => {
  const test = { id: 'test/auth.test.js::login > rejects', name: 'rejects', file: 'test/auth.test.js' };
  it('takes config rules first, matching id, name or file', () => {
    expect(
      resolveCriticality(test, { rules: [{ match: 'auth\\.test', level: 'high' }], plan: { [test.id]: 'low' } }),
    ).toEqual({ level: 'high', source: 'config' });
    expect(resolveCriticality(test, { rules: [{ match: '^rejects$', level: 'low' }] })).toEqual({
      level: 'low',
      source: 'config',
    });
  });
  it('makes flaky tests low', () => {
    expect(resolveCriticality(test, { rules: [], flaky: new Set([test.id]) })).toEqual({
      level: 'low',
      source: 'flaky',
    });
  });
  it('uses heuristics before the plan', () => {
    expect(
      resolveCriticality(test, {
        rules: [],
        heuristic: () => ({ level: 'high', reason: 'crash' }),
        plan: { [test.id]: 'low' },
      }),
    ).toEqual({ level: 'high', source: 'heuristic' });
  });
  it('uses the plan by id or name', () => {
    expect(resolveCriticality(test, { rules: [], plan: { rejects: 'low' } })).toEqual({ level: 'low', source: 'plan' });
  });
  it('defaults to medium', () => {
    expect(resolveCriticality(test, { rules: [] })).toEqual({ level: 'medium', source: 'default' });
  });
});
