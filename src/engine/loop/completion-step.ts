import type { Outcome } from '../events.js';
import { throughLink } from '../session/paths.js';
import { EXIT } from './exit-codes.js';
import type { IterationState } from '../session/schema.js';
import type { TestResults } from '../types.js';
import type { LoopContext } from './context.js';
import { usageByIteration } from './iteration-usage.js';
import { renderFailureReport, renderSummary, summarizeCalls } from './reports.js';

/** How a loop run ended; the CLI turns it into an exit code. */
export interface LoopResult {
  outcome: Outcome;
  reason: string;
  exitCode: number;
  passRate: number | null;
  reportPath?: string;
}

export { EXIT };

/** Writes the session summary (and the failure report when it failed) and reports the outcome. */
export async function completeSession(
  ctx: LoopContext,
  state: IterationState,
  results: TestResults | null,
): Promise<LoopResult> {
  const passRate = results?.pass_rate ?? null;
  const status = state.status;
  const outcome: Outcome =
    status === 'completed' ? 'success' : status === 'partial_success' ? 'partial_success' : 'failure';
  const reason = state.outcome_reason ?? status;
  const calls = await ctx.session.readAgentCalls();
  await ctx.session.writeSummary(
    'session-summary.md',
    renderSummary(state, results, outcome, reason, summarizeCalls(calls), usageByIteration(calls)),
  );
  let reportPath: string | undefined;
  if (outcome === 'failure') {
    const history = await ctx.session.readHistory();
    await ctx.session.writeSummary('failure-report.md', renderFailureReport(state, results, history, reason));
    // Said as `.workflow` names it, where the user looks for sessions.
    reportPath = throughLink(ctx.repo.root, `${ctx.session.paths.summariesDir}/failure-report.md`);
  }
  ctx.emit({
    type: 'phase',
    phase: 'completion',
    status: outcome === 'failure' ? 'failed' : 'done',
    iteration: state.current_iteration,
    detail: outcome,
  });
  const exitCode = outcome === 'failure' ? EXIT.failure : EXIT.success;
  ctx.emit({ type: 'done', outcome, reason, exitCode, passRate, reportPath });
  return { outcome, reason, exitCode, passRate, reportPath };
}

/** The user stopped the session: it is saved as interrupted (unless it had finished) and can be resumed. */
export async function interruptSession(
  ctx: LoopContext,
  state: IterationState,
  results: TestResults | null,
  save: () => Promise<void>,
): Promise<LoopResult> {
  if (!['completed', 'partial_success', 'failed'].includes(state.status)) {
    state.status = 'interrupted';
    await save();
  }
  const reason = `stopped by the user; resume with \`fixcycle run --resume-session ${state.session_id}\``;
  const passRate = results?.pass_rate ?? null;
  ctx.emit({ type: 'done', outcome: 'interrupted', reason, exitCode: EXIT.interrupted, passRate });
  return { outcome: 'interrupted', reason, exitCode: EXIT.interrupted, passRate };
}
