import { printFiles } from '../isolation/tree-guard.js';
import type { FixHistoryEntry, FixOutcome, FixPlan, Iteration, IterationResult } from '../session/schema.js';
import { afterIteration } from './decide-step.js';
import { degradedStop } from './degraded-step.js';
import { completeIteration, fixRecord } from './iteration-record.js';
import { agentSteps, type LoopRun } from './loop-run.js';
import { filesChangedByFix } from './test-artifacts.js';

/** The fix step: the agent applies the plan, the fix guard checks it, and the iteration goes on to its re-test. */
export async function fix(r: LoopRun, it: Iteration, history: FixHistoryEntry[]): Promise<void> {
  const { ctx, state } = r;
  const plan = await ctx.session.readPlan(it.iteration);
  const fixed = await (
    await agentSteps()
  ).applyFix(ctx, await r.promptContext(it, history, plan ?? undefined), r.hooks(history), r.signal);
  if (r.stopped) return;
  if (!fixed.agent)
    return degraded(
      r,
      it,
      'no agent could apply the fix',
      [
        ...fixed.calls.map((c) => `${c.agent}: ${c.classification}${c.detail ? ` (${c.detail})` : ''}`),
        ...(fixed.failure ? [fixed.failure] : []),
      ].join(', ') || 'no agent available',
    );
  if (fixed.agent !== it.agent) it.agent = it.agent ? `${it.agent} → ${fixed.agent}` : fixed.agent;
  const changed = await filesChangedByFix(ctx);
  // A fix that changes nothing is an iteration lost like one without a plan: it counts towards --max-degraded.
  if (changed.length === 0)
    return degraded(
      r,
      it,
      'the fix agent changed no file',
      `${it.agent ?? 'the agent'} answered without editing`,
      'no_change',
      plan,
    );
  const check = await r.policies.checkFix?.({ changedFiles: changed, plan });
  if (check?.rejected) {
    await ctx.repo.restoreFiles(changed);
    const reason = `fix rejected and reverted: ${check.rejected.join('; ')}`;
    state.last_setback = `iteration ${it.iteration}'s fix was rejected: ${check.rejected.join('; ')}. Fix the code under test instead.`;
    ctx.emit({ type: 'log', level: 'warn', message: reason });
    return endWithoutRetest(r, it, 'rejected', reason, plan, changed);
  }
  if (check?.testEdits?.length)
    ctx.emit({
      type: 'log',
      level: 'warn',
      message: `the fix edits test files (the plan says these tests are wrong): ${check.testEdits.join(', ')}`,
    });
  // In place, the files as the agent left them: a save of the user's before the commit stops it (see retest);
  // not when the re-test itself may rewrite them (--update-snapshots).
  if (ctx.options.inPlace && !ctx.options.updateSnapshots)
    r.fixPrints.set(it.iteration, await printFiles(ctx.repo.root, changed));
  Object.assign(it, { files_changed: changed, step: 'retest' });
  state.next_action = 'retest';
  const task = await ctx.session.readTask(it.iteration);
  if (task) await ctx.session.writeTask(it.iteration, { ...task, status: 'completed' });
  await r.save();
}

/** Ends an iteration whose fix never reached a re-test (no change, rejected, degraded). */
export async function endWithoutRetest(
  r: LoopRun,
  it: Iteration,
  outcome: FixOutcome,
  reason: string,
  plan: FixPlan | null,
  changed: string[] = [],
): Promise<void> {
  const { ctx } = r;
  const results = r.results!;
  const task = await ctx.session.readTask(it.iteration);
  if (task)
    await ctx.session.writeTask(it.iteration, {
      ...task,
      status: outcome === 'rejected' ? 'rejected' : 'failed',
    });
  await ctx.session.recordFix(
    fixRecord(it, plan, {
      outcome,
      reason,
      filesChanged: changed,
      passRateBefore: it.pass_rate_before ?? results.pass_rate,
      passRateAfter: null,
    }),
  );
  completeIteration(it, outcome as IterationResult, results, reason);
  ctx.emit({ type: 'phase', phase: 'retest', status: 'skipped', iteration: it.iteration, detail: reason });
  await afterIteration(r, results, results.scope === 'full');
}

/** An iteration without a usable plan or fix; enough of them in a row stop the session (--max-degraded). */
export async function degraded(
  r: LoopRun,
  it: Iteration,
  why: string,
  detail: string,
  outcome: FixOutcome = 'degraded',
  plan: FixPlan | null = null,
): Promise<void> {
  const { ctx, state } = r;
  it.degraded = true;
  ctx.emit({ type: 'log', level: 'warn', message: `iteration ${it.iteration} degraded: ${why} (${detail})` });
  await endWithoutRetest(r, it, outcome, `${why}: ${detail}`, plan);
  if (state.next_action !== 'execute_fix_task') return;
  const stop = degradedStop(state, ctx.options.maxDegraded);
  if (stop) {
    Object.assign(state, { status: 'failed', next_action: 'complete', outcome_reason: stop });
    await r.save();
  }
}
