import { assertWorktreeHere } from '../isolation/worktree-gone.js';
import type { NoTestRanCause } from '../runners/index.js';
import type { IterationState } from '../session/schema.js';
import type { LoopContext } from './context.js';

/**
 * Ends the session on a test step in which no test ran for a cause outside the code (a missing tool, a
 * crashed runner, no report): no agent can fix that, and a fix cannot be judged without tests, so nothing is
 * committed. `pendingFix` names the iteration whose fix stays uncommitted in the working tree, if any.
 */
export async function stopForNoTestRan(
  ctx: LoopContext,
  state: IterationState,
  why: NoTestRanCause,
  pendingFix?: number,
): Promise<void> {
  // No test ran because the worktree they ran in is gone: that is no finding about the project.
  assertWorktreeHere(ctx.repo.root, ctx.options.inPlace, state.session_id);
  const firstLine = why.message.split('\n')[0]!;
  const kept =
    pendingFix !== undefined ? `; iteration ${pendingFix}'s fix was not committed and is left in the working tree` : '';
  ctx.emit({ type: 'log', level: 'error', message: why.message });
  Object.assign(state, {
    status: 'failed',
    next_action: 'complete',
    stopped_by: 'no_test_ran',
    outcome_reason: `${firstLine}${kept}`,
  });
  state.updated_at = new Date().toISOString();
  await ctx.session.saveState(state);
  ctx.emit({ type: 'state', state: structuredClone(state) });
}
