import type { Criticality } from '../types.js';

/** Partial success needs at least this pass rate, with every failure of low criticality. */
export const PARTIAL_SUCCESS_RATE = 95;

export interface CompletionInput {
  passRate: number;
  failures: readonly { criticality: Criticality }[];
  /** Failures outside any test (import errors, a crashed runner). */
  errorCount: number;
  /** Iterations done so far. */
  iteration: number;
  maxIterations: number;
  /** Success is only declared on a full run of the suite. */
  fullRun: boolean;
}

export type Completion = 'success' | 'partial_success' | 'continue' | 'failure';

export interface CompletionDecision {
  outcome: Completion;
  reason: string;
}

/** Should the session stop here, and how? */
export function decideCompletion(input: CompletionInput): CompletionDecision {
  const { passRate, failures, errorCount, iteration, maxIterations, fullRun } = input;
  const clean = failures.length === 0 && errorCount === 0;
  if (passRate === 100 && clean) {
    if (fullRun) return { outcome: 'success', reason: 'every test passes' };
    return { outcome: 'continue', reason: 'the affected tests pass: the full suite must confirm' };
  }
  const allLow = failures.length > 0 && errorCount === 0 && failures.every((f) => f.criticality === 'low');
  if (passRate >= PARTIAL_SUCCESS_RATE && allLow && fullRun) {
    return { outcome: 'partial_success', reason: `pass rate ${passRate}% ≥ ${PARTIAL_SUCCESS_RATE}% and the ${failures.length} remaining failure(s) are all low criticality` };
  }
  if (iteration >= maxIterations) {
    return { outcome: 'failure', reason: `${maxIterations} iteration(s) done and the pass rate is ${passRate}%` };
  }
  if (passRate >= PARTIAL_SUCCESS_RATE && !allLow) {
    const why = errorCount > 0 ? `${errorCount} error(s) outside tests` : 'failures of medium or high criticality remain';
    return { outcome: 'continue', reason: `pass rate ${passRate}% but ${why}` };
  }
  return { outcome: 'continue', reason: `pass rate ${passRate}% < ${PARTIAL_SUCCESS_RATE}%` };
}

/**
 * The design's rule for an iteration whose analysis failed on every agent:
 * go on only early (iteration < 3) and while the pass rate is still improving.
 */
export function shouldContinueDegraded(iteration: number, passRates: readonly number[]): { go: boolean; reason: string } {
  const [prev, last] = passRates.slice(-2);
  const improved = prev !== undefined && last !== undefined && last > prev;
  if (iteration < 3 && improved) return { go: true, reason: `iteration ${iteration} < 3 and the pass rate improved (${prev}% → ${last}%)` };
  if (iteration >= 3) return { go: false, reason: `every agent failed at iteration ${iteration} (≥ 3)` };
  return { go: false, reason: `every agent failed and the pass rate has not improved` };
}
