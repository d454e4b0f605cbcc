import type { ChainHooks } from '../agents/chain.js';
import { assertWorktreeHere } from '../isolation/worktree-gone.js';
import type { TreePrint } from '../isolation/tree-guard.js';
import type { PromptContext } from '../prompts/index.js';
import type { FixHistoryEntry, FixPlan, Iteration, IterationState } from '../session/schema.js';
import type { Criticality, TestResults } from '../types.js';
import type { LoopContext, LoopPolicies } from './context.js';
import { UserControls } from './controls.js';
import { leaveOutParts } from './parts-left-out-step.js';
import type { StartedSuite, SuiteRun } from './suite-start.js';
import { runSuite, type SuiteOutcome } from './test-step.js';

// A run whose suite passes never asks an agent: the agent steps and the localizer (acorn, the coverage
// readers) load with the first failure, not with every start.
export const agentSteps = () => import('./agent-steps.js');

/**
 * What the steps of one loop share: the session's state and the latest results, the user's controls, and the
 * small acts every step does (save a transition, run the suite).
 */
export class LoopRun {
  /** In place: each iteration's fix files as the agent left them (in memory: a resumed re-test has none). */
  readonly fixPrints = new Map<number, TreePrint>();
  readonly controls: UserControls;
  /** The latest results: what the code measures now (after a rollback, what it measured before the fix). */
  results: TestResults | null = null;

  constructor(
    readonly ctx: LoopContext,
    readonly state: IterationState,
    readonly policies: LoopPolicies,
    abort?: AbortController,
  ) {
    this.controls = new UserControls(ctx.emit, abort);
  }

  /** The iteration under way (started, not completed). */
  get current(): Iteration | undefined {
    const last = this.state.iterations.at(-1);
    return last && !last.completed_at ? last : undefined;
  }

  get stopped(): boolean {
    return this.controls.stopped;
  }

  get signal(): AbortSignal {
    return this.controls.abort.signal;
  }

  /** Saves a transition before the next step starts (never from a worktree removed meanwhile). */
  async save(): Promise<void> {
    assertWorktreeHere(this.ctx.repo.root, this.ctx.options.inPlace, this.state.session_id);
    this.state.updated_at = new Date().toISOString();
    await this.ctx.session.saveState(this.state);
    this.ctx.emit({ type: 'state', state: structuredClone(this.state) });
  }

  /** Runs the suite; a part of the command that cannot run here, found beside the code's own failures, is left out after. */
  async suite(run: SuiteRun, started?: Promise<StartedSuite>): Promise<SuiteOutcome> {
    const outcome = await runSuite(this.ctx, run, started);
    if (outcome.partsNotRun?.length) leaveOutParts(this.ctx, this.state, outcome.partsNotRun);
    return outcome;
  }

  flaky(): Set<string> {
    return new Set((this.state.flaky_tests as string[] | undefined) ?? []);
  }

  planCriticality(): Record<string, Criticality> | undefined {
    return this.state.plan_criticality as Record<string, Criticality> | undefined;
  }

  async promptContext(it: Iteration, history: FixHistoryEntry[], plan?: FixPlan): Promise<PromptContext> {
    return (await agentSteps()).buildPromptContext(this.ctx, this.state, this.results!, it, history, plan);
  }

  hooks(history: FixHistoryEntry[]): ChainHooks {
    return { ...this.policies.chainHooks?.(this.state, history), gate: () => this.controls.gate() };
  }
}
