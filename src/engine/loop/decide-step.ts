import { decideCompletion } from '../decisions/completion.js';
import { completionWithPartsLeftOut } from '../decisions/parts-left-out.js';
import { findStuckTests } from '../decisions/stuck.js';
import { needsWhatIsNotHere } from '../runners/tests-that-cannot-run.js';
import type { TestResults } from '../types.js';
import type { LoopRun } from './loop-run.js';
import { stopForNoTestRan } from './no-test-ran-step.js';
import { partsLeftOut } from './parts-left-out-step.js';
import { markApproved } from './user-decisions.js';

/** Sets next_action from the results; runs the full suite first when only affected tests ran. */
export async function decide(r: LoopRun, results: TestResults, fullRun: boolean): Promise<void> {
  const { ctx, state } = r;
  const input = {
    passRate: results.pass_rate,
    failures: results.failures,
    errorCount: results.errors.length,
    iteration: state.current_iteration,
    maxIterations: state.max_iterations,
    fullRun,
    ownFailures: results.own_failures?.length ?? 0,
  };
  let decision = decideCompletion(input);
  // What still fails may be only tests that cannot run here: a full run says so, and stops.
  const onlyMissingHere =
    results.failures.length + results.errors.length > 0 &&
    results.failures.every(needsWhatIsNotHere) &&
    results.errors.every(needsWhatIsNotHere);
  if (
    !fullRun &&
    (onlyMissingHere ||
      decision.outcome !== 'continue' ||
      results.pass_rate === 100 ||
      decideCompletion({ ...input, fullRun: true }).outcome !== 'continue')
  ) {
    // Success is only declared on a full run: validate before stopping.
    const full = await r.suite({
      scope: 'full',
      label: 'final validation (full suite)',
      iteration: state.current_iteration,
      phase: 'validation',
      previous: results,
      flaky: r.flaky(),
      planCriticality: r.planCriticality(),
      signal: r.signal,
    });
    if (r.stopped) return;
    if (full.noTestRan) return stopForNoTestRan(ctx, state, full.noTestRan);
    r.results = results = full.results;
    decision = decideCompletion({
      ...input,
      passRate: results.pass_rate,
      failures: results.failures,
      errorCount: results.errors.length,
      fullRun: true,
      ownFailures: results.own_failures?.length ?? 0,
    });
  } else if (fullRun && decision.outcome !== 'continue') {
    ctx.emit({
      type: 'phase',
      phase: 'validation',
      status: 'done',
      iteration: state.current_iteration,
      detail: `full suite: ${results.pass_rate}%`,
    });
  }
  const ended = completionWithPartsLeftOut(decision, partsLeftOut(state));
  if (ended.convergedHere) state.stopped_by = 'part_not_run';
  decision = ended;
  state.outcome_reason = decision.reason;
  switch (decision.outcome) {
    case 'success':
      Object.assign(state, { status: 'completed', next_action: 'complete' });
      break;
    case 'partial_success':
      if (ctx.options.autoApprove) markApproved(state, '--yes');
      else Object.assign(state, { status: 'awaiting_approval', next_action: 'await_approval' });
      break;
    case 'failure':
      Object.assign(state, { status: 'failed', next_action: 'complete' });
      break;
    case 'continue':
      Object.assign(state, { status: 'active', next_action: 'execute_fix_task' });
      break;
  }
  await r.save();
}

/** Stuck tests, then the completion decision. */
export async function afterIteration(r: LoopRun, results: TestResults, fullRun: boolean): Promise<void> {
  const { ctx, state } = r;
  const tested = state.iterations.filter((i) => i.completed_at && i.failed_tests).map((i) => i.failed_tests!);
  const stuck = findStuckTests(tested);
  if (stuck.join() !== state.stuck_tests.join()) {
    state.stuck_tests = stuck;
    if (stuck.length > 0) ctx.emit({ type: 'stuck', iteration: state.current_iteration, tests: stuck });
  }
  await decide(r, results, fullRun);
}
