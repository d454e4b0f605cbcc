import { iterationStateSchema, sessionStatusSchema, type Iteration, type IterationState } from './schema.js';

export type StateRead = { ok: true; state: IterationState } | { ok: false; error: string };

function failedTestNames(iteration: Iteration): string[] {
  if (iteration.failed_tests) return iteration.failed_tests;
  const failures = iteration.test_results?.failures ?? [];
  return failures.map((f) => (typeof f === 'string' ? f : (f.id ?? f.name ?? ''))).filter(Boolean);
}

function passRateOf(iteration: Iteration): number | undefined {
  if (iteration.pass_rate !== undefined) return iteration.pass_rate;
  const r = iteration.test_results;
  if (r?.total && r.passed !== undefined) return Math.round((r.passed / r.total) * 10000) / 100;
  return undefined;
}

/**
 * Normalizes a parsed iteration-state.json in either shape of the design (the command's nested
 * test_results or the phase's flat pass_rate/failed_tests) into the shape the loop works with.
 */
export function normalizeIterationState(raw: unknown, fallbackSessionId: string): StateRead {
  const parsed = iterationStateSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? issue.path.join('.') : 'the top level';
    return { ok: false, error: `${where}: ${issue?.message ?? 'not an iteration state'}` };
  }
  const s = parsed.data;
  const iterations = s.iterations.map((it) => ({
    ...it,
    pass_rate: passRateOf(it),
    failed_tests: failedTestNames(it),
  }));
  const last = iterations.at(-1);
  const status = sessionStatusSchema.safeParse(s.status);
  const now = new Date().toISOString();
  return {
    ok: true,
    state: {
      ...s,
      session_id: s.session_id ?? fallbackSessionId,
      current_task: s.current_task ?? 'IMPL-002',
      current_iteration: s.current_iteration ?? last?.iteration ?? 0,
      max_iterations: s.max_iterations ?? 10,
      started_at: s.started_at ?? iterations[0]?.started_at ?? now,
      updated_at: s.updated_at ?? now,
      status: status.success ? status.data : 'active',
      selected_strategy: s.selected_strategy ?? last?.strategy ?? 'conservative',
      strategy_reason: s.strategy_reason ?? '',
      next_action: s.next_action ?? 'execute_fix_task',
      stuck_tests: s.stuck_tests ?? [],
      iterations,
    },
  };
}
