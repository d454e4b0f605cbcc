import { detectRegression } from '../decisions/regression.js';
import { changedSince, TreeChangedError, treeChangedMessage } from '../isolation/tree-guard.js';
import type { FixOutcome } from '../session/schema.js';
import { brokenTestsSetback, passingBefore, testsBrokenByFix } from './broken-tests-step.js';
import { confirmWithFullSuite } from './confirm-step.js';
import { afterIteration } from './decide-step.js';
import { completeIteration, fixRecord } from './iteration-record.js';
import type { LoopRun } from './loop-run.js';
import { stopForNoTestRan } from './no-test-ran-step.js';
import { filesChangedByFix } from './test-artifacts.js';

/** Re-tests the applied fix, commits it, and rolls it back if it regressed. */
export async function retest(r: LoopRun): Promise<void> {
  const { ctx, state } = r;
  const it = r.current;
  if (!it) {
    state.next_action = 'execute_fix_task';
    return r.save();
  }
  const before = it.pass_rate_before ?? r.results!.pass_rate;
  const previous = r.results;
  const head = await ctx.repo.log(1);
  const headMessage = head[0]?.message ?? '';
  // A stop between the commit and saving the state: adopt the commit instead of making another.
  if (!it.commit && headMessage.startsWith(`test-cycle: iteration ${it.iteration} -`)) it.commit = head[0]!.sha;
  const changed = it.files_changed ?? (await filesChangedByFix(ctx));
  const passedBefore = await passingBefore(ctx, previous);
  let run = await r.suite({
    scope: 'affected',
    label: `iteration ${it.iteration}: re-test`,
    iteration: it.iteration,
    phase: 'retest',
    changedFiles: changed,
    previous,
    flaky: r.flaky(),
    planCriticality: r.planCriticality(),
    signal: r.signal,
  });
  if (r.stopped) return;
  run =
    (await confirmWithFullSuite(ctx, state, {
      iteration: it.iteration,
      run,
      previous,
      plan: await ctx.session.readPlan(it.iteration),
      flaky: r.flaky(),
      planCriticality: r.planCriticality(),
      signal: r.signal,
    })) ?? run;
  if (r.stopped) return;
  if (run.noTestRan && !it.commit && !run.noTestRan.testsRan)
    return stopForNoTestRan(ctx, state, run.noTestRan, it.iteration);
  const after = run.results.pass_rate;
  it.tests_run = run.results.ran ?? undefined;
  it.tests_run_reason = run.selection?.reason ?? 'full suite';
  if (!it.commit) {
    const print = r.fixPrints.get(it.iteration);
    const moved = print ? await changedSince(ctx.repo.root, print) : [];
    if (moved.length) throw new TreeChangedError(treeChangedMessage(moved, state.session_id));
    const message = `test-cycle: iteration ${it.iteration} - ${it.strategy} strategy (pass: ${before}% → ${after}%)`;
    const sha = await ctx.repo.commitFiles(changed, message);
    it.commit = sha;
    if (sha) ctx.emit({ type: 'commit', iteration: it.iteration, sha, message, files: changed });
    await r.save();
  }
  it.pass_rate = after;
  const broken = await testsBrokenByFix(ctx, state, passedBefore, run.results, r.signal);
  if (r.stopped) return;
  const regression = detectRegression({ before, after, broken: broken.map((f) => f.id) });
  const plan = await ctx.session.readPlan(it.iteration);
  let results = run.results;
  let outcome: FixOutcome = after > before ? 'improved' : 'no_change';
  if (regression.regressed && it.commit) {
    const message = `test-cycle: rollback iteration ${it.iteration} - regression detected (${
      broken.length > 0
        ? `broke ${broken.length} passing test(s); pass: ${before}% → ${after}%`
        : `pass: ${after}% < ${before}%`
    })`;
    const latest = (await ctx.repo.log(1))[0];
    it.rollback_commit = latest?.message.startsWith(`test-cycle: rollback iteration ${it.iteration} `)
      ? latest.sha
      : await ctx.repo.revertCommit(it.commit, message);
    ctx.emit({
      type: 'rollback',
      iteration: it.iteration,
      sha: it.rollback_commit,
      message,
      reason: regression.reason,
    });
    state.last_setback = `iteration ${it.iteration}'s fix (${plan?.approach ?? 'unknown approach'}; changed ${changed.join(', ')}) was rolled back: ${regression.reason}${broken.length > 0 ? `\n${brokenTestsSetback(broken)}` : ''}`;
    if (broken.length > 0) it.broken_tests = regression.broken;
    outcome = 'regressed_rolled_back';
    // The code is back to what `previous` measured.
    if (previous) {
      results = previous;
      await ctx.session.saveResults(previous);
      ctx.emit({ type: 'results', iteration: it.iteration, results: previous });
    }
  }
  r.results = results;
  await ctx.session.recordFix(
    fixRecord(it, plan, {
      outcome,
      reason: regression.reason,
      filesChanged: changed,
      passRateBefore: before,
      passRateAfter: after,
      ...(outcome === 'regressed_rolled_back' && broken.length > 0 ? { brokenTests: regression.broken } : {}),
    }),
  );
  completeIteration(it, outcome, results, regression.reason);
  if (outcome !== 'regressed_rolled_back') delete state.last_setback;
  // The fix is kept; what still fails is only tests that cannot run here: said, and no agent is asked again.
  if (run.noTestRan?.testsRan && outcome !== 'regressed_rolled_back')
    return stopForNoTestRan(ctx, state, run.noTestRan);
  await afterIteration(r, results, run.selection === null && outcome !== 'regressed_rolled_back');
}
