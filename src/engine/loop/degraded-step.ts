import { degradedInARow, MAX_DEGRADED_IN_A_ROW, shouldStopDegraded } from '../decisions/completion.js';
import type { IterationState } from '../session/schema.js';

/** The outcome reason that ends the session after a degraded iteration, or null when the loop goes on. */
export function degradedStop(state: IterationState, max = MAX_DEGRADED_IN_A_ROW): string | null {
  const decision = shouldStopDegraded(degradedInARow(state.iterations), max);
  if (!decision.stop) return null;
  const last = state.iterations.filter((i) => i.completed_at).at(-1);
  return `stopped after ${decision.reason}: no agent produced a usable plan or a change${last?.note ? `; the last: ${last.note}` : ''}`;
}
