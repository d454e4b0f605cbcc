import { describe, expect, it } from 'vitest';
import {
  decideCompletion,
  degradedInARow,
  shouldStopDegraded,
  type CompletionInput,
} from '../../src/engine/decisions/completion.js';

const low = { criticality: 'low' as const };
const medium = { criticality: 'medium' as const };
const high = { criticality: 'high' as const };
const base: CompletionInput = {
  passRate: 50,
  failures: [medium],
  errorCount: 0,
  iteration: 1,
  maxIterations: 10,
  fullRun: true,
};

describe('decideCompletion', () => {
  it.each([
    ['success at 100% on a full run', { passRate: 100, failures: [] }, 'success'],
    ['not success at 100% on an affected run', { passRate: 100, failures: [], fullRun: false }, 'continue'],
    ['not success at 100% with an error outside tests', { passRate: 100, failures: [], errorCount: 1 }, 'continue'],
    ['not success at 100% when a new, non-baseline test fails', { passRate: 100, failures: [high] }, 'continue'],
    ['partial success at 95% with only low failures', { passRate: 95, failures: [low] }, 'partial_success'],
    ['partial success at 99% with several low failures', { passRate: 99, failures: [low, low] }, 'partial_success'],
    ['no partial success on an affected run', { passRate: 97, failures: [low], fullRun: false }, 'continue'],
    ['fix loop at 96% with a medium failure', { passRate: 96, failures: [low, medium] }, 'continue'],
    ['fix loop at 96% with a high failure', { passRate: 96, failures: [high] }, 'continue'],
    ['fix loop at 94.99% even if all low', { passRate: 94.99, failures: [low] }, 'continue'],
    ['fix loop at 96% with low failures and an error', { passRate: 96, failures: [low], errorCount: 1 }, 'continue'],
    ['failure at max iterations', { iteration: 10 }, 'failure'],
    ['failure past max iterations', { iteration: 11, maxIterations: 10 }, 'failure'],
    ['success wins at the last iteration', { iteration: 10, passRate: 100, failures: [] }, 'success'],
    ['partial success wins at the last iteration', { iteration: 10, passRate: 96, failures: [low] }, 'partial_success'],
    [
      'failure at max iterations at 96% with a medium failure',
      { iteration: 10, passRate: 96, failures: [medium] },
      'failure',
    ],
  ] as const)('%s', (_name, overrides, outcome) => {
    expect(decideCompletion({ ...base, ...overrides }).outcome).toBe(outcome);
  });

  it('says why it goes on', () => {
    expect(decideCompletion({ ...base, passRate: 96, failures: [medium] }).reason).toMatch(/medium or high/);
    expect(decideCompletion({ ...base, passRate: 60 }).reason).toMatch(/60% < 95%/);
  });
});

describe('degraded iterations', () => {
  it.each([
    [1, 3, false],
    [2, 3, false],
    [3, 3, true],
    [4, 3, true],
    [1, 1, true],
    [4, 5, false],
  ] as const)('%i in a row with a limit of %i -> stop %s', (inARow, max, stop) => {
    expect(shouldStopDegraded(inARow, max).stop).toBe(stop);
  });

  it('says why it stops, naming the option that changes the limit', () => {
    expect(shouldStopDegraded(3).reason).toBe('3 degraded iterations in a row (the limit is 3, see --max-degraded)');
  });

  it('counts only the degraded iterations at the end, in a row', () => {
    const done = '2026-01-01T00:00:00Z';
    expect(
      degradedInARow([
        { degraded: true, completed_at: done },
        { completed_at: done },
        { degraded: true, completed_at: done },
        { degraded: true, completed_at: done },
      ]),
    ).toBe(2);
    expect(degradedInARow([{ degraded: true, completed_at: done }, { completed_at: done }])).toBe(0);
    // The iteration under way does not count either way.
    expect(degradedInARow([{ degraded: true, completed_at: done }, {}])).toBe(1);
    expect(degradedInARow([])).toBe(0);
  });
});
