import type { ChainHooks } from '../agents/chain.js';
import { decideCompletion } from '../decisions/completion.js';
import { detectRegression } from '../decisions/regression.js';
import { findStuckTests } from '../decisions/stuck.js';
import type { PromptContext } from '../prompts/index.js';
import type {
  FixHistoryEntry,
  FixOutcome,
  FixPlan,
  Iteration,
  IterationResult,
  IterationState,
} from '../session/schema.js';
import type { Criticality, TestResults } from '../types.js';
import type { LoopContext, LoopPolicies } from './context.js';
import type { IntentTarget } from '../intents/apply-intents.js';
import { UserControls } from './controls.js';
import { spotFlakyTests } from './flaky-step.js';
import { degradedStop } from './degraded-step.js';
import { completeIteration, fixRecord } from './iteration-record.js';
import { nextIteration } from './next-iteration.js';
import { completeSession, EXIT, interruptSession, type LoopResult } from './completion-step.js';
import { confirmWithFullSuite } from './confirm-step.js';
import { needsWhatIsNotHere } from '../runners/tests-that-cannot-run.js';
import { stopForNoTestRan } from './no-test-ran-step.js';
import { filesChangedByFix } from './test-artifacts.js';
import { brokenTestsSetback, passingBefore, testsBrokenByFix } from './broken-tests-step.js';
import {
  changedSince,
  printFiles,
  TreeChangedError,
  treeChangedMessage,
  type TreePrint,
} from '../isolation/tree-guard.js';
import { assertWorktreeHere } from '../isolation/worktree-gone.js';
import { intentTargetOf, markApproved, revertLastFix, rollbackBlocker } from './user-decisions.js';

// A run whose suite passes never asks an agent: the agent steps and the localizer (acorn, the coverage
// readers) load with the first failure, not with every start.
const agentSteps = () => import('./agent-steps.js');
import { runSuite, type SuiteOutcome } from './test-step.js';
import { initialSuiteRun, type BegunRun, type StartedSuite, type SuiteRun } from './suite-start.js';
import { applyPartsLeftOut, leaveOutParts, partsLeftOut } from './parts-left-out-step.js';
import { completionWithPartsLeftOut } from '../decisions/parts-left-out.js';

export { EXIT, type LoopResult } from './completion-step.js';
export type { FixChecker, LoopPolicies } from './context.js';
export type { BegunRun } from './suite-start.js';

/**
 * The test-fix cycle as a state machine over iteration-state.json: every transition is saved
 * before the next step starts, so `--resume-session` continues from `next_action` after any stop.
 */
export class TestFixLoop {
  /** In place: each iteration's fix files as the agent left them (in memory: a resumed re-test has none). */
  private readonly fixPrints = new Map<number, TreePrint>();
  readonly controls: UserControls;
  private results: TestResults | null = null;

  constructor(
    private readonly ctx: LoopContext,
    private state: IterationState,
    private readonly policies: LoopPolicies = {},
    private begun?: BegunRun,
  ) {
    this.controls = new UserControls(ctx.emit, begun?.abort);
    this.controls.canRollBack = () => rollbackBlocker(this.state);
  }

  private get current(): Iteration | undefined {
    const last = this.state.iterations.at(-1);
    return last && !last.completed_at ? last : undefined;
  }

  private async save(): Promise<void> {
    assertWorktreeHere(this.ctx.repo.root, this.ctx.options.inPlace, this.state.session_id);
    this.state.updated_at = new Date().toISOString();
    await this.ctx.session.saveState(this.state);
    this.ctx.emit({ type: 'state', state: structuredClone(this.state) });
  }

  /** Runs from the session's next_action to an outcome (or until the user stops it). */
  async run(): Promise<LoopResult> {
    try {
      this.results = await this.ctx.session.readResults();
      applyPartsLeftOut(this.ctx, this.state);
      if (this.state.status === 'interrupted' || this.state.status === 'paused') this.state.status = 'active';
      this.ctx.emit({ type: 'state', state: structuredClone(this.state) });
      if (!this.results) await this.initialRun();
      for (;;) {
        if (!(await this.controls.gate())) return this.interrupted();
        if (this.controls.rollbackRequested && this.state.next_action !== 'complete') {
          this.controls.rollbackRequested = false;
          await this.userRollback();
          continue;
        }
        switch (this.state.next_action) {
          case 'complete':
            return await this.finish();
          case 'await_approval': {
            const done = await this.awaitApproval();
            if (done) return done;
            continue;
          }
          case 'retest':
            await this.retest();
            break;
          case 'execute_fix_task':
            await this.iterate();
            break;
        }
        if (this.controls.stopped) return this.interrupted();
      }
    } catch (error) {
      // A git call or a run in a worktree removed by hand fails for that alone: say so, not what failed.
      assertWorktreeHere(this.ctx.repo.root, this.ctx.options.inPlace, this.state.session_id);
      if (this.controls.stopped) return this.interrupted();
      throw error;
    }
  }

  /** Runs the suite; a part of the command that cannot run here, found beside the code's own failures, is left out after. */
  private async suite(run: SuiteRun, started?: Promise<StartedSuite>): Promise<SuiteOutcome> {
    const outcome = await runSuite(this.ctx, run, started);
    if (outcome.partsNotRun?.length) leaveOutParts(this.ctx, this.state, outcome.partsNotRun);
    return outcome;
  }

  private async initialRun(): Promise<void> {
    const run = { ...initialSuiteRun(this.controls.abort.signal), flaky: this.flaky() };
    const begun = this.begun?.suite;
    this.begun = undefined;
    const { results, noTestRan } = await this.suite(run, begun);
    if (this.controls.stopped) return;
    this.results = results;
    if (noTestRan) return stopForNoTestRan(this.ctx, this.state, noTestRan);
    this.state.initial_pass_rate = results.pass_rate;
    this.state.baseline_total = results.total;
    await this.decide(results, true);
  }

  private flaky(): Set<string> {
    return new Set((this.state.flaky_tests as string[] | undefined) ?? []);
  }

  private planCriticality(): Record<string, Criticality> | undefined {
    return this.state.plan_criticality as Record<string, Criticality> | undefined;
  }

  /** Sets next_action from the results; runs the full suite first when only affected tests ran. */
  private async decide(results: TestResults, fullRun: boolean): Promise<void> {
    const input = {
      passRate: results.pass_rate,
      failures: results.failures,
      errorCount: results.errors.length,
      iteration: this.state.current_iteration,
      maxIterations: this.state.max_iterations,
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
      const full = await this.suite({
        scope: 'full',
        label: 'final validation (full suite)',
        iteration: this.state.current_iteration,
        phase: 'validation',
        previous: results,
        flaky: this.flaky(),
        planCriticality: this.planCriticality(),
        signal: this.controls.abort.signal,
      });
      if (this.controls.stopped) return;
      if (full.noTestRan) return stopForNoTestRan(this.ctx, this.state, full.noTestRan);
      this.results = results = full.results;
      decision = decideCompletion({
        ...input,
        passRate: results.pass_rate,
        failures: results.failures,
        errorCount: results.errors.length,
        fullRun: true,
        ownFailures: results.own_failures?.length ?? 0,
      });
    } else if (fullRun && decision.outcome !== 'continue') {
      this.ctx.emit({
        type: 'phase',
        phase: 'validation',
        status: 'done',
        iteration: this.state.current_iteration,
        detail: `full suite: ${results.pass_rate}%`,
      });
    }
    const ended = completionWithPartsLeftOut(decision, partsLeftOut(this.state));
    if (ended.convergedHere) this.state.stopped_by = 'part_not_run';
    decision = ended;
    this.state.outcome_reason = decision.reason;
    switch (decision.outcome) {
      case 'success':
        Object.assign(this.state, { status: 'completed', next_action: 'complete' });
        break;
      case 'partial_success':
        if (this.ctx.options.autoApprove) markApproved(this.state, '--yes');
        else Object.assign(this.state, { status: 'awaiting_approval', next_action: 'await_approval' });
        break;
      case 'failure':
        Object.assign(this.state, { status: 'failed', next_action: 'complete' });
        break;
      case 'continue':
        Object.assign(this.state, { status: 'active', next_action: 'execute_fix_task' });
        break;
    }
    await this.save();
  }

  /** Re-runs new failures once before an agent is asked; true when flaky tests settled the session. */
  private async checkFlaky(): Promise<boolean> {
    const results = await spotFlakyTests(this.ctx, this.state, this.results!, this.controls.abort.signal);
    if (this.controls.stopped) return true;
    if (!results) {
      await this.save();
      return false;
    }
    this.results = results;
    await this.ctx.session.saveResults(results);
    this.ctx.emit({ type: 'results', iteration: this.state.current_iteration, results });
    await this.decide(results, results.scope === 'full');
    return this.state.next_action !== 'execute_fix_task';
  }

  private async startIteration(): Promise<Iteration> {
    const iteration = nextIteration(this.state, this.results!);
    const n = iteration.iteration;
    await this.ctx.session.writeFailures(n, this.results!);
    this.state.iterations.push(iteration);
    Object.assign(this.state, {
      current_iteration: n,
      current_task: `IMPL-fix-${n}`,
      selected_strategy: iteration.strategy,
      strategy_reason: iteration.strategy_reason,
      next_action: 'execute_fix_task',
    });
    await this.save();
    return iteration;
  }

  private async promptContext(it: Iteration, history: FixHistoryEntry[], plan?: FixPlan): Promise<PromptContext> {
    return (await agentSteps()).buildPromptContext(this.ctx, this.state, this.results!, it, history, plan);
  }

  private hooks(history: FixHistoryEntry[]): ChainHooks {
    return { ...this.policies.chainHooks?.(this.state, history), gate: () => this.controls.gate() };
  }

  /** One fix iteration up to its re-test: strategy, analysis, fix, guard. */
  private async iterate(): Promise<void> {
    const budget = this.policies.budgetExceeded?.();
    if (budget) {
      Object.assign(this.state, {
        status: 'failed',
        next_action: 'complete',
        stopped_by: 'budget',
        outcome_reason: `stopped: ${budget}; resume with a larger --budget to go on`,
      });
      await this.save();
      return;
    }
    if (!this.current && (await this.checkFlaky())) return;
    const it = this.current ?? (await this.startIteration());
    const history = await this.ctx.session.readHistory();
    if (it.step === 'analyze') {
      this.ctx.emit({
        type: 'strategy',
        iteration: it.iteration,
        strategy: it.strategy!,
        reason: it.strategy_reason ?? '',
      });
      const localization = await (
        await import('./localize-step.js')
      ).localizeFailures(this.ctx, it.iteration, this.results!, this.controls.abort.signal);
      if (this.controls.stopped) return;
      const analysis = await (
        await agentSteps()
      ).analyzeFailures(
        this.ctx,
        {
          ...(await this.promptContext(it, history)),
          ...(localization ? { localization, root: this.ctx.repo.root } : {}),
        },
        this.hooks(history),
        this.controls.abort.signal,
      );
      if (this.controls.stopped) return;
      it.agents_tried = analysis.calls.map((c) => c.agent);
      if (!analysis.plan)
        return this.degraded(
          it,
          'every agent failed to produce a usable fix plan',
          [
            ...analysis.calls.map((c) => `${c.agent}: ${c.classification}`),
            ...(analysis.failure ? [analysis.failure] : []),
          ].join(', ') || 'no agent available',
        );
      it.agent = analysis.agent ?? undefined;
      if (analysis.warnings.length) it.plan_warnings = analysis.warnings;
      if (analysis.plan.criticality)
        this.state.plan_criticality = { ...this.planCriticality(), ...analysis.plan.criticality };
      it.step = 'fix';
      await this.save();
      if (!(await this.controls.gate())) return;
    }
    if (it.step === 'fix') await this.fix(it, history);
  }

  private async fix(it: Iteration, history: FixHistoryEntry[]): Promise<void> {
    const plan = await this.ctx.session.readPlan(it.iteration);
    const fix = await (
      await agentSteps()
    ).applyFix(
      this.ctx,
      await this.promptContext(it, history, plan ?? undefined),
      this.hooks(history),
      this.controls.abort.signal,
    );
    if (this.controls.stopped) return;
    if (!fix.agent)
      return this.degraded(
        it,
        'no agent could apply the fix',
        [
          ...fix.calls.map((c) => `${c.agent}: ${c.classification}${c.detail ? ` (${c.detail})` : ''}`),
          ...(fix.failure ? [fix.failure] : []),
        ].join(', ') || 'no agent available',
      );
    if (fix.agent !== it.agent) it.agent = it.agent ? `${it.agent} → ${fix.agent}` : fix.agent;
    const changed = await filesChangedByFix(this.ctx);
    // A fix that changes nothing is an iteration lost like one without a plan: it counts towards --max-degraded.
    if (changed.length === 0)
      return this.degraded(
        it,
        'the fix agent changed no file',
        `${it.agent ?? 'the agent'} answered without editing`,
        'no_change',
        plan,
      );
    const check = await this.policies.checkFix?.({ changedFiles: changed, plan });
    if (check?.rejected) {
      await this.ctx.repo.restoreFiles(changed);
      const reason = `fix rejected and reverted: ${check.rejected.join('; ')}`;
      this.state.last_setback = `iteration ${it.iteration}'s fix was rejected: ${check.rejected.join('; ')}. Fix the code under test instead.`;
      this.ctx.emit({ type: 'log', level: 'warn', message: reason });
      return this.endWithoutRetest(it, 'rejected', reason, plan, changed);
    }
    if (check?.testEdits?.length)
      this.ctx.emit({
        type: 'log',
        level: 'warn',
        message: `the fix edits test files (the plan says these tests are wrong): ${check.testEdits.join(', ')}`,
      });
    // In place, the files as the agent left them: a save of the user's before the commit stops it (see retest);
    // not when the re-test itself may rewrite them (--update-snapshots).
    if (this.ctx.options.inPlace && !this.ctx.options.updateSnapshots)
      this.fixPrints.set(it.iteration, await printFiles(this.ctx.repo.root, changed));
    Object.assign(it, { files_changed: changed, step: 'retest' });
    this.state.next_action = 'retest';
    const task = await this.ctx.session.readTask(it.iteration);
    if (task) await this.ctx.session.writeTask(it.iteration, { ...task, status: 'completed' });
    await this.save();
  }

  /** Ends an iteration whose fix never reached a re-test (no change, rejected, degraded). */
  private async endWithoutRetest(
    it: Iteration,
    outcome: FixOutcome,
    reason: string,
    plan: FixPlan | null,
    changed: string[] = [],
  ): Promise<void> {
    const results = this.results!;
    const task = await this.ctx.session.readTask(it.iteration);
    if (task)
      await this.ctx.session.writeTask(it.iteration, {
        ...task,
        status: outcome === 'rejected' ? 'rejected' : 'failed',
      });
    await this.ctx.session.recordFix(
      fixRecord(it, plan, {
        outcome,
        reason,
        filesChanged: changed,
        passRateBefore: it.pass_rate_before ?? results.pass_rate,
        passRateAfter: null,
      }),
    );
    completeIteration(it, outcome as IterationResult, results, reason);
    this.ctx.emit({ type: 'phase', phase: 'retest', status: 'skipped', iteration: it.iteration, detail: reason });
    await this.afterIteration(results, results.scope === 'full');
  }

  private async degraded(
    it: Iteration,
    why: string,
    detail: string,
    outcome: FixOutcome = 'degraded',
    plan: FixPlan | null = null,
  ): Promise<void> {
    it.degraded = true;
    this.ctx.emit({ type: 'log', level: 'warn', message: `iteration ${it.iteration} degraded: ${why} (${detail})` });
    await this.endWithoutRetest(it, outcome, `${why}: ${detail}`, plan);
    if (this.state.next_action !== 'execute_fix_task') return;
    const stop = degradedStop(this.state, this.ctx.options.maxDegraded);
    if (stop) {
      Object.assign(this.state, { status: 'failed', next_action: 'complete', outcome_reason: stop });
      await this.save();
    }
  }

  /** Stuck tests, then the completion decision. */
  private async afterIteration(results: TestResults, fullRun: boolean): Promise<void> {
    const tested = this.state.iterations.filter((i) => i.completed_at && i.failed_tests).map((i) => i.failed_tests!);
    const stuck = findStuckTests(tested);
    if (stuck.join() !== this.state.stuck_tests.join()) {
      this.state.stuck_tests = stuck;
      if (stuck.length > 0) this.ctx.emit({ type: 'stuck', iteration: this.state.current_iteration, tests: stuck });
    }
    await this.decide(results, fullRun);
  }

  /** Re-tests the applied fix, commits it, and rolls it back if it regressed. */
  private async retest(): Promise<void> {
    const it = this.current;
    if (!it) {
      this.state.next_action = 'execute_fix_task';
      return this.save();
    }
    const before = it.pass_rate_before ?? this.results!.pass_rate;
    const previous = this.results;
    const head = await this.ctx.repo.log(1);
    const headMessage = head[0]?.message ?? '';
    // A stop between the commit and saving the state: adopt the commit instead of making another.
    if (!it.commit && headMessage.startsWith(`test-cycle: iteration ${it.iteration} -`)) it.commit = head[0]!.sha;
    const changed = it.files_changed ?? (await filesChangedByFix(this.ctx));
    const passedBefore = await passingBefore(this.ctx, previous);
    let run = await this.suite({
      scope: 'affected',
      label: `iteration ${it.iteration}: re-test`,
      iteration: it.iteration,
      phase: 'retest',
      changedFiles: changed,
      previous,
      flaky: this.flaky(),
      planCriticality: this.planCriticality(),
      signal: this.controls.abort.signal,
    });
    if (this.controls.stopped) return;
    run =
      (await confirmWithFullSuite(this.ctx, this.state, {
        iteration: it.iteration,
        run,
        previous,
        plan: await this.ctx.session.readPlan(it.iteration),
        flaky: this.flaky(),
        planCriticality: this.planCriticality(),
        signal: this.controls.abort.signal,
      })) ?? run;
    if (this.controls.stopped) return;
    if (run.noTestRan && !it.commit && !run.noTestRan.testsRan)
      return stopForNoTestRan(this.ctx, this.state, run.noTestRan, it.iteration);
    const after = run.results.pass_rate;
    it.tests_run = run.results.ran ?? undefined;
    it.tests_run_reason = run.selection?.reason ?? 'full suite';
    if (!it.commit) {
      const print = this.fixPrints.get(it.iteration);
      const moved = print ? await changedSince(this.ctx.repo.root, print) : [];
      if (moved.length) throw new TreeChangedError(treeChangedMessage(moved, this.state.session_id));
      const message = `test-cycle: iteration ${it.iteration} - ${it.strategy} strategy (pass: ${before}% → ${after}%)`;
      const sha = await this.ctx.repo.commitFiles(changed, message);
      it.commit = sha;
      if (sha) this.ctx.emit({ type: 'commit', iteration: it.iteration, sha, message, files: changed });
      await this.save();
    }
    it.pass_rate = after;
    const broken = await testsBrokenByFix(this.ctx, this.state, passedBefore, run.results, this.controls.abort.signal);
    if (this.controls.stopped) return;
    const regression = detectRegression({ before, after, broken: broken.map((f) => f.id) });
    const plan = await this.ctx.session.readPlan(it.iteration);
    let results = run.results;
    let outcome: FixOutcome = after > before ? 'improved' : 'no_change';
    if (regression.regressed && it.commit) {
      const message = `test-cycle: rollback iteration ${it.iteration} - regression detected (${
        broken.length > 0
          ? `broke ${broken.length} passing test(s); pass: ${before}% → ${after}%`
          : `pass: ${after}% < ${before}%`
      })`;
      const latest = (await this.ctx.repo.log(1))[0];
      it.rollback_commit = latest?.message.startsWith(`test-cycle: rollback iteration ${it.iteration} `)
        ? latest.sha
        : await this.ctx.repo.revertCommit(it.commit, message);
      this.ctx.emit({
        type: 'rollback',
        iteration: it.iteration,
        sha: it.rollback_commit,
        message,
        reason: regression.reason,
      });
      this.state.last_setback = `iteration ${it.iteration}'s fix (${plan?.approach ?? 'unknown approach'}; changed ${changed.join(', ')}) was rolled back: ${regression.reason}${broken.length > 0 ? `\n${brokenTestsSetback(broken)}` : ''}`;
      if (broken.length > 0) it.broken_tests = regression.broken;
      outcome = 'regressed_rolled_back';
      // The code is back to what `previous` measured.
      if (previous) {
        results = previous;
        await this.ctx.session.saveResults(previous);
        this.ctx.emit({ type: 'results', iteration: it.iteration, results: previous });
      }
    }
    this.results = results;
    await this.ctx.session.recordFix(
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
    if (outcome !== 'regressed_rolled_back') delete this.state.last_setback;
    // The fix is kept; what still fails is only tests that cannot run here: said, and no agent is asked again.
    if (run.noTestRan?.testsRan && outcome !== 'regressed_rolled_back')
      return stopForNoTestRan(this.ctx, this.state, run.noTestRan);
    await this.afterIteration(results, run.selection === null && outcome !== 'regressed_rolled_back');
  }

  /** The user asked to roll back the last committed fix: revert it, re-run the suite, go on surgically. */
  private async userRollback(): Promise<void> {
    const target = await revertLastFix(this.ctx, this.state);
    if (!target) return;
    await this.save();
    const { results } = await this.suite({
      scope: 'full',
      label: `after rolling back iteration ${target.iteration}`,
      iteration: this.state.current_iteration,
      phase: 'validation',
      previous: this.results,
      flaky: this.flaky(),
      planCriticality: this.planCriticality(),
      signal: this.controls.abort.signal,
    });
    if (this.controls.stopped) return;
    this.results = results;
    // Rolling back reopens the loop even at max iterations: give the next fix one more iteration.
    if (this.state.current_iteration >= this.state.max_iterations)
      this.state.max_iterations = this.state.current_iteration + 1;
    await this.decide(results, true);
  }

  /** Partial success: approved by --yes or a key, else the session stops awaiting approval (exit 3). */
  private async awaitApproval(): Promise<LoopResult | null> {
    const results = this.results!;
    if (this.ctx.options.autoApprove) return this.approve();
    this.ctx.emit({
      type: 'phase',
      phase: 'completion',
      status: 'running',
      iteration: this.state.current_iteration,
      detail: 'awaiting approval',
    });
    this.ctx.emit({ type: 'await-approval', passRate: results.pass_rate, failures: results.failures });
    const someoneDecides = this.ctx.options.interactive || (await this.ctx.options.waitForDecision?.());
    if (!someoneDecides) {
      const reason = `partial success at ${results.pass_rate}% (only low-criticality failures) awaits approval: run \`fixcycle run --resume-session ${this.state.session_id} --yes\` to approve`;
      this.ctx.emit({
        type: 'done',
        outcome: 'awaiting_approval',
        reason,
        exitCode: EXIT.awaitingApproval,
        passRate: results.pass_rate,
      });
      return { outcome: 'awaiting_approval', reason, exitCode: EXIT.awaitingApproval, passRate: results.pass_rate };
    }
    if (!this.ctx.options.interactive)
      this.ctx.emit({
        type: 'log',
        level: 'info',
        message: `partial success at ${results.pass_rate}% awaits approval: waiting for a decision from a pane (fixcycle pane: a approves, r then y rolls back, q stops)`,
      });
    const answer = await this.controls.waitForApproval();
    if (answer === 'approve') return this.approve();
    if (answer === 'stop') return this.interrupted();
    await this.userRollback();
    return null;
  }

  private async approve(): Promise<LoopResult> {
    markApproved(this.state, this.controls.approvedBy ?? '--yes');
    await this.save();
    return this.finish();
  }

  /** What a pane's intents act on (see engine/intents). */
  intentTarget(): IntentTarget {
    return intentTargetOf(
      () => this.state,
      this.controls,
      () => this.save(),
    );
  }

  private async finish(): Promise<LoopResult> {
    return completeSession(this.ctx, this.state, this.results);
  }

  private async interrupted(): Promise<LoopResult> {
    return interruptSession(this.ctx, this.state, this.results, () => this.save());
  }
}
