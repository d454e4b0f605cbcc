import type { Outcome } from '../engine/events.js';
import type { SessionView } from '../state/store.js';
import { formatPercent } from './iteration-rows.js';

const WORDS: Record<Outcome, string> = {
  success: '✓ Success',
  partial_success: '✓ Partial success',
  awaiting_approval: '? Partial success awaiting approval',
  failure: '✗ Failure',
  interrupted: '‖ Interrupted',
  error: '✗ Error',
};

/**
 * What the normal screen keeps once the TUI is gone (q, Ctrl-C, the end): the outcome (or that the session goes on
 * elsewhere), pass rate, iterations and session id, then the command that goes on from here: resume, approve, watch,
 * or the report. `driving` is true for the process that ran the loop (it has stopped), false for a watcher or a pane
 * (the session may still run). No lines when no session was shown.
 */
export function receiptLines(
  view: Pick<SessionView, 'sessionId' | 'state' | 'done' | 'awaitingApproval' | 'results'>,
  driving: boolean,
): string[] {
  const id = view.sessionId;
  if (!id) return [];
  const outcome: Outcome | null = view.done?.outcome ?? (view.awaitingApproval ? 'awaiting_approval' : null);
  const head = outcome ? WORDS[outcome] : driving ? WORDS.interrupted : '… Still running';
  const rate = view.done?.passRate ?? view.awaitingApproval?.passRate ?? view.results?.pass_rate;
  const state = view.state;
  const iterations = state ? ` · iteration ${state.iterations.length}/${state.max_iterations}` : '';
  const facts = `fixcycle: ${head}${rate === undefined || rate === null ? '' : ` · pass rate ${formatPercent(rate)}`}${iterations} · ${id}`;
  let next: string;
  if (outcome === 'awaiting_approval') next = `approve: fixcycle run --resume-session ${id} --yes`;
  else if (outcome === 'interrupted' || (!outcome && driving)) next = `resume: fixcycle run --resume-session ${id}`;
  else if (!outcome) next = `watch it: fixcycle watch --session ${id}`;
  else next = view.done?.reportPath ? `report: ${view.done.reportPath}` : `details: fixcycle status --session ${id}`;
  return [facts, `  ${next}`];
}
