import type { AgentCall, AgentRole } from '../agents/agent.js';
import {
  analyzeWithChain,
  fixWithChain,
  type AnalysisOutcome,
  type ChainHooks,
  type FixAttempt,
} from '../agents/chain.js';
import { renderAnalysisPrompt, renderFixPrompt, type PromptContext } from '../prompts/index.js';
import type { FixHistoryEntry, FixPlan, Iteration, IterationState } from '../session/schema.js';
import type { FixTask } from '../session/session-files.js';
import type { Strategy, TestResults } from '../types.js';
import { needsWhatIsNotHere } from '../runners/tests-that-cannot-run.js';
import { agentRelay, type AgentRelay } from './agent-relay.js';
import { filesChangedByFix } from './test-artifacts.js';
import type { LoopContext } from './context.js';
import { throughLink } from '../session/paths.js';
import { planOutsideSuspects, suspectsMarkdown } from '../localize/format.js';
import type { Localization } from '../localize/types.js';

/** What the prompts tell the agent about this iteration. */
export function buildPromptContext(
  ctx: LoopContext,
  state: IterationState,
  results: TestResults,
  it: Iteration,
  history: FixHistoryEntry[],
  plan?: FixPlan,
): PromptContext {
  const paths = ctx.session.paths;
  const shown = (path: string): string => throughLink(ctx.repo.root, path);
  return {
    iteration: it.iteration,
    maxIterations: state.max_iterations,
    strategy: it.strategy!,
    strategyReason: it.strategy_reason ?? '',
    passRate: results.pass_rate,
    // A test that fails only because this machine lacks a terminal, device, browser or submodule is never the agent's.
    failures: results.failures.filter((failure) => !needsWhatIsNotHere(failure)),
    errors: results.errors.filter((error) => !needsWhatIsNotHere(error)),
    stuckTests: state.stuck_tests,
    history,
    lastSetback: state.last_setback as string | undefined,
    plan,
    paths: {
      testResults: shown(paths.testResults),
      testOutput: shown(paths.testOutput),
      task: shown(paths.task(it.iteration)),
      sessionDir: shown(paths.dir),
    },
  };
}

/** The environment of the agent command protocol. */
function protocolEnv(ctx: LoopContext, role: AgentRole, iteration: number, strategy: Strategy): Record<string, string> {
  const paths = ctx.session.paths;
  const shown = (path: string): string => throughLink(ctx.repo.root, path);
  return {
    FIXCYCLE_ROLE: role,
    FIXCYCLE_SESSION_DIR: shown(paths.dir),
    FIXCYCLE_ITERATION: String(iteration),
    FIXCYCLE_STRATEGY: strategy,
    FIXCYCLE_TEST_RESULTS: shown(paths.testResults),
    FIXCYCLE_TASK_PATH: shown(paths.task(iteration)),
  };
}

function hooksFor(
  ctx: LoopContext,
  iteration: number,
  role: AgentRole,
  extra: ChainHooks,
  relay: AgentRelay,
): ChainHooks {
  return {
    ...extra,
    onStart: (agent) => {
      relay.onStart(agent);
      ctx.emit({ type: 'agent', iteration, agent, role, status: 'started' });
    },
    onCall: async (call) => {
      ctx.emit({
        type: 'agent',
        iteration,
        agent: call.agent,
        role,
        status: 'finished',
        classification: call.classification,
        detail: call.detail,
        durationMs: call.durationMs,
        tokens: call.tokens,
        costUsd: call.costUsd,
      });
      await ctx.session.appendAgentCall({
        at: new Date().toISOString(),
        iteration,
        agent: call.agent,
        role,
        duration_ms: call.durationMs,
        exit_code: call.exitCode,
        classification: call.classification,
        detail: call.detail,
        tokens: call.tokens,
        cost_usd: call.costUsd,
      });
      await extra.onCall?.(call);
    },
  };
}

function transcript(calls: readonly AgentCall[]): string {
  return calls
    .map(
      (c) =>
        `===== ${c.agent} (${c.role}) exit ${c.exitCode ?? '-'} ${c.classification}${c.detail ? `: ${c.detail}` : ''} in ${c.durationMs} ms =====\n--- stdout ---\n${c.stdout}\n--- stderr ---\n${c.stderr}\n`,
    )
    .join('\n');
}

function analysisMarkdown(
  iteration: number,
  strategy: Strategy,
  reason: string,
  outcome: AnalysisOutcome,
  localization?: Localization,
): string {
  const { plan, calls } = outcome;
  const suspects = localization ? `\n${suspectsMarkdown(localization)}` : '';
  const tried = calls.map((c) => `- ${c.agent}: ${c.classification}${c.detail ? ` (${c.detail})` : ''}`).join('\n');
  if (!plan)
    return `# Iteration ${iteration} analysis\n\nStrategy: ${strategy} — ${reason}\n\nNo agent produced a usable fix plan (degraded)${outcome.failure ? `: ${outcome.failure}` : ''}.\n${suspects}\n## Agents tried\n${tried || '- none available'}\n`;
  const warnings = outcome.warnings.length
    ? `\n## Warnings (plan used as the best available)\n${outcome.warnings.map((w) => `- ${w}`).join('\n')}\n`
    : '';
  return `# Iteration ${iteration} analysis

Strategy: ${strategy} — ${reason}
Confidence: ${plan.confidence_score}
${warnings}
## Root causes
${plan.root_causes.map((c) => `- ${c}`).join('\n')}

## Modification points
${plan.modification_points.map((m) => `- ${m}`).join('\n')}

## Approach
${plan.approach}

## Affected tests
${plan.affected_tests.map((t) => `- ${t}`).join('\n') || '- (none named)'}
${suspects}
## Agents tried
${tried}
`;
}

export type AnalysisResult = AnalysisOutcome;

/** Asks the chain for a fix plan and writes the iteration's analysis, CLI output and IMPL-fix-N.json. */
export async function analyzeFailures(
  ctx: LoopContext,
  prompt: PromptContext,
  hooks: ChainHooks,
  signal?: AbortSignal,
): Promise<AnalysisResult> {
  const { iteration, strategy, strategyReason } = prompt;
  ctx.emit({ type: 'phase', phase: 'analysis', status: 'running', iteration, detail: `${strategy} strategy` });
  ctx.emit({ type: 'output-reset', label: `iteration ${iteration}: analysis` });
  const relay = agentRelay(ctx, iteration, 'analyze');
  const outcome = await analyzeWithChain(
    ctx.agents,
    // privateDir is read as each agent starts: the relay knows which one.
    {
      prompt: renderAnalysisPrompt(prompt),
      cwd: ctx.repo.root,
      env: protocolEnv(ctx, 'analyze', iteration, strategy),
      timeoutMs: ctx.options.agentTimeoutMs,
      signal,
      onLines: (lines) => ctx.emit({ type: 'output', lines }),
      onActivity: relay.onActivity,
      get privateDir() {
        return relay.privateDir;
      },
    },
    hooksFor(ctx, iteration, 'analyze', hooks, relay),
  );
  await ctx.session.writeCliOutput(iteration, transcript(outcome.calls));
  // A plan that changes none of the suspects may be right, but it says so in the record.
  const outside =
    outcome.plan && prompt.localization
      ? planOutsideSuspects(outcome.plan.modification_points, prompt.localization.suspects)
      : null;
  if (outside) outcome.warnings.push(outside);
  await ctx.session.writeAnalysis(
    iteration,
    analysisMarkdown(iteration, strategy, strategyReason, outcome, prompt.localization),
  );
  if (outcome.plan && outcome.warnings.length) {
    const message = `iteration ${iteration}: using ${outcome.agent}'s plan with warnings: ${outcome.warnings.join('; ')}`;
    ctx.emit({ type: 'log', level: 'warn', message });
    ctx.emit({ type: 'output', lines: [`! ${message}`] });
  }
  const task: FixTask = {
    id: `IMPL-fix-${iteration}`,
    title: `Fix iteration ${iteration}: ${outcome.plan?.root_causes[0] ?? 'no plan (degraded)'}`,
    status: outcome.plan ? 'pending' : 'failed',
    meta: {
      type: 'test-fix-iteration',
      iteration,
      max_iterations: ctx.options.maxIterations,
      ...(outcome.agent ? { agent: outcome.agent } : {}),
    },
    context: {
      failure_context: {
        failed_tests: prompt.failures.map((f) => f.id),
        pass_rate: prompt.passRate,
        error_messages: prompt.failures.slice(0, 20).map((f) => f.message.split('\n')[0] ?? ''),
      },
      fix_strategy: {
        strategy,
        strategy_reason: strategyReason,
        ...(outcome.plan ?? {}),
        test_execution: { affected_tests: outcome.plan?.affected_tests ?? [] },
      },
    },
  };
  await ctx.session.writeTask(iteration, task);
  const ok = outcome.plan !== null;
  const warned = outcome.warnings.length
    ? ` (${outcome.warnings.length} warning${outcome.warnings.length > 1 ? 's' : ''})`
    : '';
  ctx.emit({
    type: 'phase',
    phase: 'analysis',
    status: ok ? 'done' : 'failed',
    iteration,
    detail: ok
      ? `${outcome.agent}: confidence ${outcome.plan!.confidence_score}${warned}`
      : 'no usable plan (degraded)',
  });
  return outcome;
}

export type FixResult = FixAttempt;

/** Has the chain apply the plan; a failed agent's half-done changes are undone before the next one tries. */
export async function applyFix(
  ctx: LoopContext,
  prompt: PromptContext,
  hooks: ChainHooks,
  signal?: AbortSignal,
): Promise<FixResult> {
  const { iteration, strategy } = prompt;
  const task = await ctx.session.readTask(iteration);
  if (task) await ctx.session.writeTask(iteration, { ...task, status: 'in_progress' });
  ctx.emit({ type: 'phase', phase: 'fix', status: 'running', iteration, detail: `${strategy} strategy` });
  ctx.emit({ type: 'output-reset', label: `iteration ${iteration}: fix` });
  const undo = async (): Promise<void> => ctx.repo.restoreFiles(await filesChangedByFix(ctx));
  const relay = agentRelay(ctx, iteration, 'fix');
  const outcome = await fixWithChain(
    ctx.agents,
    {
      prompt: renderFixPrompt(prompt),
      cwd: ctx.repo.root,
      env: protocolEnv(ctx, 'fix', iteration, strategy),
      timeoutMs: ctx.options.agentTimeoutMs,
      signal,
      onLines: (lines) => ctx.emit({ type: 'output', lines }),
      onActivity: relay.onActivity,
      get privateDir() {
        return relay.privateDir;
      },
    },
    undo,
    hooksFor(ctx, iteration, 'fix', hooks, relay),
  );
  const previous = await ctx.session.readCliOutputText(iteration);
  await ctx.session.writeCliOutput(iteration, previous + '\n' + transcript(outcome.calls));
  ctx.emit({
    type: 'phase',
    phase: 'fix',
    status: outcome.agent ? 'done' : 'failed',
    iteration,
    detail: outcome.agent ? `applied by ${outcome.agent}` : 'no agent could apply the fix',
  });
  return outcome;
}
