import type { LoopControls } from '../engine/events.js';
import type { SessionView } from '../state/store.js';
import { formatPercent, lastCommittedIteration } from './iteration-rows.js';
import type { Question } from './question-lines.js';

/**
 * What the approval banner asks: the pass rate and what is left, and the keys that answer (a, r when a fix can be
 * rolled back, q). When no key can reach the loop (nothing drives the session) it says the command that approves.
 */
export function approvalQuestion(
  view: Pick<SessionView, 'awaitingApproval' | 'sessionId' | 'state'>,
  controls: LoopControls | null,
): Question | null {
  const awaiting = view.awaitingApproval;
  if (!awaiting) return null;
  const count = awaiting.failures.length;
  const head = `? Partial success awaiting approval: pass rate ${formatPercent(awaiting.passRate)}, ${count} low-criticality failure${count === 1 ? '' : 's'} left`;
  if (!controls || controls.unreachable?.())
    return {
      text: `${head}. Approve with fixcycle run --resume-session ${view.sessionId ?? '<id>'} --yes`,
      choices: [],
    };
  const canRollBack = lastCommittedIteration(view.state?.iterations ?? []) !== undefined;
  return {
    text: head,
    choices: [
      { key: 'a', does: 'approves and finishes', short: 'approve' },
      ...(canRollBack ? [{ key: 'r', does: 'rolls back the last fix', short: 'roll back' }] : []),
      // What q does there: the pane asks whether to stop the run or leave it running; the run asks whether to stop.
      controls.remote
        ? { key: 'q', does: 'asks: stop the run, or just leave', short: 'quit' }
        : { key: 'q', does: 'stops the run (asks first)', short: 'quit' },
    ],
  };
}
