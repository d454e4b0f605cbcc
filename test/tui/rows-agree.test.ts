// Rows that agree with the record: one run's rate with its own counts, a rolled-back iteration marked as such,
// marks that mean one thing, and an iteration's line naming its own strategy.
import { describe, expect, it } from 'vitest';
import { countsOfRate, iterationRows } from '../../src/tui/iteration-rows.js';
import { currentIterationLabel, iterationMark } from '../../src/tui/phase-model.js';
import { FIRST, iterationState, results } from './scenarios.js';
import { createFixcycleStore } from '../../src/state/store.js';

describe('rows that agree with the record', () => {
  it("a rolled-back iteration's pre-rollback rate reads with that run's counts, not the counts after", () => {
    // 70.6% is 24 of 34; 29/5 are the counts after the rollback.
    expect(countsOfRate(70.6, 29, 5)).toEqual({ passed: 24, failed: 10 });
    expect(countsOfRate(85.3, 29, 5)).toEqual({ passed: 29, failed: 5 });
    expect(countsOfRate(50, 3, 4)).toEqual({});
    const [row] = iterationRows([
      {
        ...FIRST,
        pass_rate: 70.6,
        pass_rate_before: 85.3,
        test_results: { total: 34, passed: 29, failed: 5 },
        result: 'regressed_rolled_back',
      },
    ]);
    expect([row!.passRate, row!.passed, row!.failed, row!.outcomeLabel]).toEqual([
      70.6,
      24,
      10,
      'regression rolled back',
    ]);
  });

  it('marks a rolled-back iteration as undone in the tree, never a green done', () => {
    const store = createFixcycleStore();
    const { apply } = store.getState();
    apply({ type: 'state', state: iterationState([{ ...FIRST, result: 'rolled_back' }]) });
    for (const phase of ['analysis', 'fix', 'retest'] as const)
      apply({ type: 'phase', phase, status: 'done', iteration: 1 });
    const view = store.getState();
    expect(iterationMark(view)).toBe('skipped');
    expect(currentIterationLabel(view)).toBe('Iteration 1: rolled back by user (pass: 82.5%, conservative)');
  });

  it("a finished iteration names its own strategy and rate, not the next one's", () => {
    const store = createFixcycleStore();
    const { apply } = store.getState();
    apply({ type: 'state', state: iterationState([{ ...FIRST, completed_at: '2025-10-17T10:05:00Z' }]) });
    for (const phase of ['analysis', 'fix', 'retest'] as const)
      apply({ type: 'phase', phase, status: 'done', iteration: 1 });
    apply({ type: 'results', iteration: 1, results: results(88.2, []) });
    apply({ type: 'strategy', iteration: 2, strategy: 'aggressive', reason: 'no progress' });
    expect(currentIterationLabel(store.getState())).toBe('Iteration 1: done (pass: 82.5%, conservative)');
  });

  it('an iteration between two steps is under way, not pending', () => {
    const store = createFixcycleStore();
    store.getState().apply({ type: 'phase', phase: 'analysis', status: 'done', iteration: 2 });
    expect(iterationMark(store.getState())).toBe('running');
  });
});
