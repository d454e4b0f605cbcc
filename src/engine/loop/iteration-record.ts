import type { FixHistoryEntry, FixOutcome, FixPlan, Iteration, IterationResult, IterationState } from '../session/schema.js';
import type { TestResults } from '../types.js';

/** Results of an iteration whose fix was taken back (by a regression or by the user). */
export const ROLLED_BACK: readonly string[] = ['regressed_rolled_back', 'rolled_back'];

export function wasRolledBack(it: Iteration | undefined): boolean {
  return ROLLED_BACK.includes(it?.result ?? '');
}

/** Closes an iteration record with its result and the tests that fail after it. */
export function completeIteration(it: Iteration, result: IterationResult, results: TestResults, note?: string): void {
  Object.assign(it, {
    completed_at: new Date().toISOString(),
    pass_rate: it.pass_rate ?? results.pass_rate,
    failed_tests: results.failures.map((f) => f.id),
    test_results: { total: results.total, passed: results.passed, failed: results.failed, failures: results.failures.map((f) => ({ id: f.id, name: f.name, criticality: f.criticality })) },
    result,
    step: 'done',
    duration_ms: it.started_at ? Date.now() - Date.parse(it.started_at) : undefined,
    ...(note ? { note } : {}),
  });
}

/** The fix-history.json entry of an iteration's fix attempt. */
export function fixRecord(
  it: Iteration,
  plan: FixPlan | null,
  outcome: { outcome: FixOutcome; reason: string; filesChanged: string[]; passRateBefore: number; passRateAfter: number | null },
): FixHistoryEntry {
  return {
    iteration: it.iteration,
    agent: it.agent ?? null,
    strategy: it.strategy!,
    root_causes: plan?.root_causes ?? [],
    modification_points: plan?.modification_points ?? [],
    approach: plan?.approach,
    files_changed: outcome.filesChanged,
    pass_rate_before: outcome.passRateBefore,
    pass_rate_after: outcome.passRateAfter,
    outcome: outcome.outcome,
    reason: outcome.reason,
    commit: it.commit ?? null,
    at: new Date().toISOString(),
  };
}

/** The pass rate after each iteration that tested a fix (a rolled-back one counts as its starting rate). */
export function passRateTrend(state: IterationState): number[] {
  const rates = [state.initial_pass_rate as number];
  for (const it of state.iterations) {
    if (!it.completed_at || it.pass_rate === undefined || it.degraded) continue;
    rates.push(wasRolledBack(it) ? (it.pass_rate_before ?? it.pass_rate) : it.pass_rate);
  }
  return rates.filter((r) => typeof r === 'number');
}

/** The last iteration whose fix is committed and still in place. */
export function lastCommitted(state: IterationState): Iteration | undefined {
  return [...state.iterations].reverse().find((i) => i.commit && !wasRolledBack(i) && i.completed_at);
}
