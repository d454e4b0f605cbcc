import type { IntentTarget } from '../intents/apply-intents.js';
import type { IntentRecord } from '../intents/intent-file.js';
import type { Iteration, IterationState } from '../session/schema.js';
import type { LoopContext } from './context.js';
import type { UserControls } from './controls.js';
import { lastCommitted } from './iteration-record.js';

// What the user decides from a key or a pane (roll back a fix, approve): the parts of it that need no loop.

/** Why the user cannot roll back now, or null when the last committed fix can be rolled back. */
export function rollbackBlocker(state: IterationState): string | null {
  if (state.next_action === 'complete') return 'the session has finished; undo a fix with git revert <commit>';
  if (!lastCommitted(state)) return 'no committed fix to roll back yet';
  return null;
}

/** Reverts the last committed fix at the user's request and records it; the suite is not re-run here. */
export async function revertLastFix(ctx: LoopContext, state: IterationState): Promise<Iteration | null> {
  const target = lastCommitted(state);
  if (!target?.commit) return null;
  const message = `test-cycle: rollback iteration ${target.iteration} - requested by user (pass: ${target.pass_rate}% → ${target.pass_rate_before}%)`;
  const sha = await ctx.repo.revertCommit(target.commit, message);
  Object.assign(target, { rollback_commit: sha, result: 'rolled_back' });
  ctx.emit({ type: 'rollback', iteration: target.iteration, sha, message, reason: 'requested by the user' });
  state.last_setback = `the user rolled back iteration ${target.iteration}'s fix (changed ${(target.files_changed ?? []).join(', ')})`;
  const history = await ctx.session.readHistory();
  const entry = history.find((h) => h.iteration === target.iteration);
  if (entry) await ctx.session.recordFix({ ...entry, outcome: 'rolled_back', reason: 'rolled back by the user' });
  return target;
}

/** What a pane's intents act on (see engine/intents): this session's controls, and its record of answers. */
export function intentTargetOf(
  state: () => IterationState,
  controls: UserControls,
  save: () => Promise<void>,
): IntentTarget {
  const records = () => (state().intents as IntentRecord[] | undefined) ?? [];
  return {
    sessionId: state().session_id,
    controls,
    awaitingApproval: () => state().next_action === 'await_approval',
    answered: () => new Set(records().map((r) => r.id)),
    record: async (entry) => {
      // The last 50 answers: enough to tell each pane what became of its key.
      state().intents = [...records(), entry].slice(-50);
      await save();
    },
  };
}

/** A partial success approved by `by` (--yes, a key, a pane): the session completes with it. */
export function markApproved(state: IterationState, by: string): void {
  Object.assign(state, {
    status: 'partial_success',
    next_action: 'complete',
    outcome_reason: `${state.outcome_reason ?? 'partial success'}; approved by ${by}`,
    approved_by: by,
    approved_at: new Date().toISOString(),
  });
}
