import type { EngineEvent } from './events.js';
import { handBackLine } from './isolation/session-isolation.js';
import type { IterationState } from './session/schema.js';

/** A new session's state before its first run. */
export function newState(id: string, maxIterations: number): IterationState {
  const now = new Date().toISOString();
  return {
    session_id: id,
    current_task: 'IMPL-002',
    current_iteration: 0,
    max_iterations: maxIterations,
    started_at: now,
    updated_at: now,
    status: 'active',
    selected_strategy: 'conservative',
    strategy_reason: 'no iteration yet',
    next_action: 'execute_fix_task',
    stuck_tests: [],
    iterations: [],
  };
}

/**
 * A resumed session's state as it goes on: a session that ran out of iterations or budget goes on when given more
 * (`maxIterations`, `budget`: what this start was given).
 */
export function resumedState(state: IterationState, maxIterations?: number, budget?: unknown): IterationState {
  if (maxIterations) state.max_iterations = maxIterations;
  const moreIterations = maxIterations !== undefined && state.current_iteration < maxIterations;
  const moreBudget = state.stopped_by === 'budget' && budget !== undefined;
  if (state.next_action === 'complete' && state.status === 'failed' && (moreIterations || moreBudget))
    return { ...state, status: 'active', next_action: 'execute_fix_task', stopped_by: undefined };
  return state;
}

/**
 * A resumed isolated session stopped after its fixes came back and its worktree went: it had ended, nothing is
 * left to resume. The line that says so; null for any other session. `worktreeThere`: its worktree still exists.
 */
export function endedAfterHandBack(state: IterationState, worktreeThere: boolean): EngineEvent | null {
  const record = state.worktree;
  const handedBack = record?.handback;
  if (!record || state.next_action !== 'complete' || worktreeThere) return null;
  if (handedBack?.status !== 'applied' && handedBack?.status !== 'nothing') return null;
  return { type: 'log', level: 'info', message: `the session had ended: ${handBackLine(handedBack, record)}` };
}

/** A fix was being applied when the session stopped: its half-done changes are the agent's, not the user's. */
export function fixInFlight(state: IterationState): boolean {
  const last = state.iterations.at(-1);
  return Boolean(last && !last.completed_at && (last.step === 'fix' || last.step === 'retest'));
}

/**
 * A worktree made again from its branch has the committed fixes only: a fix the agent had made but the loop not
 * yet committed was lost with the old one, so its iteration goes back to the fix step rather than re-test nothing.
 */
export function redoLostFix(state: IterationState): void {
  const last = state.iterations.at(-1);
  if (!last || last.completed_at || last.step !== 'retest' || last.commit) return;
  last.step = 'fix';
  delete last.files_changed;
  state.next_action = 'execute_fix_task';
}
