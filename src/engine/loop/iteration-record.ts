import type {
  FixHistoryEntry,
  FixOutcome,
  FixPlan,
  Iteration,
  IterationResult,
  IterationState,
} from '../session/schema.js';
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
    test_results: {
      total: results.total,
      passed: results.passed,
      failed: results.failed,
      failures: results.failures.map((f) => ({ id: f.id, name: f.name, criticality: f.criticality })),
    },
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
  outcome: {
    outcome: FixOutcome;
    reason: string;
    filesChanged: string[];
    passRateBefore: number;
    passRateAfter: number | null;
    /** The tests the fix broke, when that rolled it back. */
    brokenTests?: string[];
  },
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
    ...(outcome.brokenTests?.length ? { broken_tests: outcome.brokenTests } : {}),
    commit: it.commit ?? null,
    ...(Array.isArray(it.plan_warnings) && it.plan_warnings.length
      ? { plan_warnings: it.plan_warnings as string[] }
      : {}),
    at: new Date().toISOString(),
  };
}

/** The last iteration whose fix is committed and still in place. */
export function lastCommitted(state: IterationState): Iteration | undefined {
  return [...state.iterations].reverse().find((i) => i.commit && !wasRolledBack(i) && i.completed_at);
}
