import { describe, expect, it } from 'vitest';
import { decideCompletion, shouldContinueDegraded, type CompletionInput } from '../../src/engine/decisions/completion.js';

const low = { criticality: 'low' as const };
const medium = { criticality: 'medium' as const };
const high = { criticality: 'high' as const };
const base: CompletionInput = { passRate: 50, failures: [medium], errorCount: 0, iteration: 1, maxIterations: 10, fullRun: true };

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
    ['failure at max iterations at 96% with a medium failure', { iteration: 10, passRate: 96, failures: [medium] }, 'failure'],
  ] as const)('%s', (_name, overrides, outcome) => {
    expect(decideCompletion({ ...base, ...overrides }).outcome).toBe(outcome);
  });

  it('says why it goes on', () => {
    expect(decideCompletion({ ...base, passRate: 96, failures: [medium] }).reason).toMatch(/medium or high/);
    expect(decideCompletion({ ...base, passRate: 60 }).reason).toMatch(/60% < 95%/);
  });
});

describe('shouldContinueDegraded', () => {
  it.each([
    [1, [50, 60], true],
    [2, [50, 60], true],
    [2, [60, 60], false],
    [2, [60, 50], false],
    [3, [50, 60], false],
    [1, [50], false],
    [1, [], false],
  ] as const)('iteration %i with pass rates %j -> %s', (iteration, rates, go) => {
    expect(shouldContinueDegraded(iteration, rates).go).toBe(go);
  });
});
