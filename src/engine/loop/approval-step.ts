import { completeSession, EXIT, type LoopResult } from './completion-step.js';
import { decide } from './decide-step.js';
import type { LoopRun } from './loop-run.js';
import { markApproved, revertLastFix } from './user-decisions.js';

/** The user asked to roll back the last committed fix: revert it, re-run the suite, go on surgically. */
export async function userRollback(r: LoopRun): Promise<void> {
  const { ctx, state } = r;
  const target = await revertLastFix(ctx, state);
  if (!target) return;
  await r.save();
  const { results } = await r.suite({
    scope: 'full',
    label: `after rolling back iteration ${target.iteration}`,
    iteration: state.current_iteration,
    phase: 'validation',
    previous: r.results,
    flaky: r.flaky(),
    planCriticality: r.planCriticality(),
    signal: r.signal,
  });
  if (r.stopped) return;
  r.results = results;
  // Rolling back reopens the loop even at max iterations: give the next fix one more iteration.
  if (state.current_iteration >= state.max_iterations) state.max_iterations = state.current_iteration + 1;
  await decide(r, results, true);
}

/** Approved (by --yes, a key or a pane): the session ends as a partial success. */
export async function approve(r: LoopRun): Promise<LoopResult> {
  markApproved(r.state, r.controls.approvedBy ?? '--yes');
  await r.save();
  return completeSession(r.ctx, r.state, r.results);
}

/**
 * Partial success: approved by --yes or a key, else the session stops awaiting approval (exit 3). `stop` ends the
 * session as interrupted; null when the user rolled back and the loop goes on.
 */
export async function awaitApproval(r: LoopRun, stop: () => Promise<LoopResult>): Promise<LoopResult | null> {
  const { ctx, state } = r;
  const results = r.results!;
  if (ctx.options.autoApprove) return approve(r);
  ctx.emit({
    type: 'phase',
    phase: 'completion',
    status: 'running',
    iteration: state.current_iteration,
    detail: 'awaiting approval',
  });
  ctx.emit({ type: 'await-approval', passRate: results.pass_rate, failures: results.failures });
  const someoneDecides = ctx.options.interactive || (await ctx.options.waitForDecision?.());
  if (!someoneDecides) {
    const reason = `partial success at ${results.pass_rate}% (only low-criticality failures) awaits approval: run \`fixcycle run --resume-session ${state.session_id} --yes\` to approve`;
    ctx.emit({
      type: 'done',
      outcome: 'awaiting_approval',
      reason,
      exitCode: EXIT.awaitingApproval,
      passRate: results.pass_rate,
    });
    return { outcome: 'awaiting_approval', reason, exitCode: EXIT.awaitingApproval, passRate: results.pass_rate };
  }
  if (!ctx.options.interactive)
    ctx.emit({
      type: 'log',
      level: 'info',
      message: `partial success at ${results.pass_rate}% awaits approval: waiting for a decision from a pane (fixcycle pane: a approves, r then y rolls back, q stops)`,
    });
  const answer = await r.controls.waitForApproval();
  if (answer === 'approve') return approve(r);
  if (answer === 'stop') return stop();
  await userRollback(r);
  return null;
}
