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
  /** Failing tests that failed before the session too (the project's own): never the session's to fix. */
  ownFailures?: number;
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
    if (fullRun)
      return {
        outcome: 'success',
        reason: input.ownFailures
          ? `every test passes but the ${input.ownFailures} that failed before the session (the project's own)`
          : 'every test passes',
      };
    return { outcome: 'continue', reason: 'the affected tests pass: the full suite must confirm' };
  }
  const allLow = failures.length > 0 && errorCount === 0 && failures.every((f) => f.criticality === 'low');
  if (passRate >= PARTIAL_SUCCESS_RATE && allLow && fullRun) {
    return {
      outcome: 'partial_success',
      reason: `pass rate ${passRate}% ≥ ${PARTIAL_SUCCESS_RATE}% and the ${failures.length} remaining failure(s) are all low criticality`,
    };
  }
  if (iteration >= maxIterations) {
    return { outcome: 'failure', reason: `${maxIterations} iteration(s) done and the pass rate is ${passRate}%` };
  }
  if (passRate >= PARTIAL_SUCCESS_RATE && !allLow) {
    const why =
      errorCount > 0 ? `${errorCount} error(s) outside tests` : 'failures of medium or high criticality remain';
    return { outcome: 'continue', reason: `pass rate ${passRate}% but ${why}` };
  }
  return { outcome: 'continue', reason: `pass rate ${passRate}% < ${PARTIAL_SUCCESS_RATE}%` };
}

/**
 * 3: one or two iterations without a usable plan or fix are a passing outage (a rate limit, a hung CLI);
 * three in a row say the agents cannot help now. `--max-degraded` changes it.
 */
export const MAX_DEGRADED_IN_A_ROW = 3;

/** How many of the last iterations, counted back from the newest finished one, were degraded. */
export function degradedInARow(iterations: readonly { degraded?: boolean; completed_at?: string }[]): number {
  let run = 0;
  for (const it of [...iterations].reverse()) {
    if (!it.completed_at) continue;
    if (!it.degraded) break;
    run++;
  }
  return run;
}

/**
 * A degraded iteration (no agent gave a usable plan or applied the fix) does not end the session by itself:
 * the loop goes on while iterations and budget remain, and stops at `max` degraded iterations in a row.
 */
export function shouldStopDegraded(inARow: number, max = MAX_DEGRADED_IN_A_ROW): { stop: boolean; reason: string } {
  if (inARow >= max)
    return { stop: true, reason: `${inARow} degraded iterations in a row (the limit is ${max}, see --max-degraded)` };
  return { stop: false, reason: `${inARow} degraded iteration(s) in a row, fewer than ${max}: the loop goes on` };
}
