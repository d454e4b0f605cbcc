import type { IterationState } from '../session/schema.js';
import type { IntentTarget } from '../intents/apply-intents.js';
import { assertWorktreeHere } from '../isolation/worktree-gone.js';
import { iterate } from './analyze-step.js';
import { awaitApproval, userRollback } from './approval-step.js';
import { completeSession, interruptSession, type LoopResult } from './completion-step.js';
import type { LoopContext, LoopPolicies } from './context.js';
import type { UserControls } from './controls.js';
import { decide } from './decide-step.js';
import { LoopRun } from './loop-run.js';
import { stopForNoTestRan } from './no-test-ran-step.js';
import { applyPartsLeftOut } from './parts-left-out-step.js';
import { retest } from './retest-step.js';
import { initialSuiteRun, type BegunRun } from './suite-start.js';
import { changeMaxIterations } from './iteration-budget.js';
import { intentTargetOf, rollbackBlocker } from './user-decisions.js';

export { EXIT, type LoopResult } from './completion-step.js';
export type { FixChecker, LoopPolicies } from './context.js';
export type { BegunRun } from './suite-start.js';

/**
 * The test-fix cycle as a state machine over iteration-state.json: every transition is saved
 * before the next step starts, so `--resume-session` continues from `next_action` after any stop.
 * Each step is a file of its own (analyze-step, fix-step, retest-step, decide-step, approval-step).
 */
export class TestFixLoop {
  private readonly r: LoopRun;
  readonly controls: UserControls;

  constructor(
    ctx: LoopContext,
    state: IterationState,
    policies: LoopPolicies = {},
    private begun?: BegunRun,
  ) {
    this.r = new LoopRun(ctx, state, policies, begun?.abort);
    this.controls = this.r.controls;
    this.controls.canRollBack = () => rollbackBlocker(state);
    this.controls.budget = (delta) => changeMaxIterations(this.r, delta);
  }

  /** Runs from the session's next_action to an outcome (or until the user stops it). */
  async run(): Promise<LoopResult> {
    const { r } = this;
    const { ctx, state } = r;
    try {
      r.results = await ctx.session.readResults();
      applyPartsLeftOut(ctx, state);
      if (state.status === 'interrupted' || state.status === 'paused') state.status = 'active';
      ctx.emit({ type: 'state', state: structuredClone(state) });
      if (!r.results) await this.initialRun();
      for (;;) {
        if (!(await this.controls.gate())) return this.interrupted();
        if (this.controls.rollbackRequested && state.next_action !== 'complete') {
          this.controls.rollbackRequested = false;
          await userRollback(r);
          continue;
        }
        switch (state.next_action) {
          case 'complete':
            return await completeSession(ctx, state, r.results);
          case 'await_approval': {
            const done = await awaitApproval(r, () => this.interrupted());
            if (done) return done;
            continue;
          }
          case 'retest':
            await retest(r);
            break;
          case 'execute_fix_task':
            await iterate(r);
            break;
        }
        if (this.controls.stopped) return this.interrupted();
      }
    } catch (error) {
      // A git call or a run in a worktree removed by hand fails for that alone: say so, not what failed.
      assertWorktreeHere(ctx.repo.root, ctx.options.inPlace, state.session_id);
      if (this.controls.stopped) return this.interrupted();
      throw error;
    }
  }

  private async initialRun(): Promise<void> {
    const { r } = this;
    const run = { ...initialSuiteRun(r.signal), flaky: r.flaky() };
    const begun = this.begun?.suite;
    this.begun = undefined;
    const { results, noTestRan } = await r.suite(run, begun);
    if (r.stopped) return;
    r.results = results;
    if (noTestRan) return stopForNoTestRan(r.ctx, r.state, noTestRan);
    r.state.initial_pass_rate = results.pass_rate;
    r.state.baseline_total = results.total;
    await decide(r, results, true);
  }

  /** What a pane's intents act on (see engine/intents). */
  intentTarget(): IntentTarget {
    return intentTargetOf(
      () => this.r.state,
      this.controls,
      () => this.r.save(),
    );
  }

  private async interrupted(): Promise<LoopResult> {
    return interruptSession(this.r.ctx, this.r.state, this.r.results, () => this.r.save());
  }
}
