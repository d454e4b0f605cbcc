import type { FixPlan } from '../session/schema.js';
import type { AgentCall, AgentRequest } from './agent.js';
import { bestCandidate, type PlanCandidate } from './plan-choice.js';
import { extractPlan } from './plan.js';
import { runAgent, type ResolvedAgent } from './run-agent.js';
import type { PlanJudgement } from './triggers.js';

/** A plan below this confidence sends the analysis to the next agent (the design's fallback trigger). */
export const MIN_CONFIDENCE = 0.4;
/** Reset-time waits in one analysis or fix: an agent rate-limited again after its reset is waited for again, twice at most. */
export const MAX_WAITS_PER_STEP = 3;

/** When a cooling agent may be asked again. */
export interface AgentReset {
  at: number;
  reason: string;
  /** The CLI announced the time (true) or it is fixcycle's back-off (false). */
  announced: boolean;
}

export interface ChainHooks {
  /** Called before each agent starts. */
  onStart?(agent: string): void;
  /** Called with each finished call, after it was judged. */
  onCall?(call: AgentCall): void | Promise<void>;
  /** Returns why an agent must be skipped now (cooling down after a rate limit), or null. */
  unavailable?(agent: string): string | null;
  /** The soft signals on a valid plan (the AI-CLI plan triggers). */
  judgePlan?(plan: FixPlan, call: AgentCall): PlanJudgement;
  /** When a cooling agent may be asked again; null when waiting would not help (not cooling, not logged in). */
  resetAt?(agent: string): AgentReset | null;
  /** Waits until `reset.at` (a countdown on screen); says why not when it will not (too long, budget spent, stopped). */
  waitForReset?(
    agent: string,
    reset: AgentReset,
    signal?: AbortSignal,
  ): Promise<{ waited: true } | { waited: false; reason: string }>;
  /** The text added to the prompt of a stuck analysis's one re-ask: the cause already tried and what came of it. */
  reaskPrompt?(cause: string): string | null;
  /** Holds while the user has paused; false when they stopped. */
  gate?(): Promise<boolean>;
}

export interface AnalysisOutcome {
  plan: FixPlan | null;
  agent: string | null;
  calls: AgentCall[];
  /** The soft signals of the plan used (empty when it has none). */
  warnings: string[];
  /** Why there is no plan, beyond the calls' own failures (an agent cooling down past the longest wait). */
  failure?: string;
}

function forRole(agents: readonly ResolvedAgent[], role: 'analyze' | 'fix'): ResolvedAgent[] {
  return agents.filter((a) => !a.spec.roles || a.spec.roles.includes(role));
}

/** Reads and checks the plan of an analysis call: the hard failures (no plan, bad schema, low confidence) reclassify the call. */
function readPlan(call: AgentCall): FixPlan | null {
  if (call.classification !== 'ok') return null;
  const read = extractPlan(call.finalText);
  if (!read.ok) {
    Object.assign(call, { classification: 'invalid_plan', detail: read.error });
    return null;
  }
  if (read.plan.confidence_score < MIN_CONFIDENCE) {
    Object.assign(call, {
      classification: 'low_confidence',
      detail: `confidence ${read.plan.confidence_score} < ${MIN_CONFIDENCE}`,
    });
    return null;
  }
  return read.plan;
}

const CLEAN: PlanJudgement = { warnings: [], concreteness: 3, repeatedCause: null };

/** Runs one agent and records the call; the plan with its judgement when it gave a usable one. */
async function ask(
  agent: ResolvedAgent,
  request: Omit<AgentRequest, 'role'>,
  hooks: ChainHooks,
  calls: AgentCall[],
): Promise<PlanCandidate | null> {
  hooks.onStart?.(agent.spec.name);
  const call = await runAgent(agent, {
    ...request,
    role: 'analyze',
    timeoutMs: agent.spec.timeoutMs ?? request.timeoutMs,
  });
  const plan = readPlan(call);
  const judgement = plan ? (hooks.judgePlan?.(plan, call) ?? CLEAN) : null;
  if (plan && judgement!.warnings.length) call.detail = `plan with warnings: ${judgement!.warnings.join('; ')}`;
  calls.push(call);
  await hooks.onCall?.(call);
  return plan ? { plan, agent: agent.spec.name, judgement: judgement!, order: calls.length } : null;
}

/**
 * Waits out the earliest reset among `agents` when every one of them is out; the agents to ask again, or why not.
 * Only agents cooling down after a rate limit can be waited for.
 */
async function waitForAnyReset(
  agents: readonly ResolvedAgent[],
  hooks: ChainHooks,
  signal: AbortSignal | undefined,
): Promise<{ agents: ResolvedAgent[] } | { reason: string | null }> {
  if (!hooks.resetAt || !hooks.waitForReset) return { reason: null };
  const cooling = agents.flatMap((a) => {
    const reset = hooks.resetAt!(a.spec.name);
    return reset ? [{ agent: a, reset }] : [];
  });
  if (cooling.length === 0) return { reason: null };
  const next = cooling.reduce((a, b) => (b.reset.at < a.reset.at ? b : a));
  const waited = await hooks.waitForReset(next.agent.spec.name, next.reset, signal);
  if (!waited.waited) return { reason: waited.reason };
  if (hooks.gate && !(await hooks.gate())) return { reason: 'stopped by the user' };
  return { agents: cooling.filter((c) => c.reset.at <= next.reset.at).map((c) => c.agent) };
}

/**
 * Asks the agents of the chain in turn for a fix plan. A hard failure (the CLI failed, timed out, was
 * rate-limited; no plan, a bad one, confidence < 0.4) moves on to the next agent. A plan with soft warnings
 * moves on only while a next agent is free; otherwise the best plan received is used, warnings and all.
 * When every agent is out and one is cooling down after a rate limit, its reset is waited out and it is asked
 * again. A plan stuck on the root cause of the last iterations gets one re-ask before it is used.
 */
export async function analyzeWithChain(
  agents: readonly ResolvedAgent[],
  request: Omit<AgentRequest, 'role'>,
  hooks: ChainHooks = {},
): Promise<AnalysisOutcome> {
  const analyzers = forRole(agents, 'analyze');
  const calls: AgentCall[] = [];
  const candidates: PlanCandidate[] = [];
  const free = (a: ResolvedAgent): boolean => !hooks.unavailable?.(a.spec.name);
  let round = analyzers;
  let failure: string | undefined;
  const skipped: string[] = [];
  for (let waits = 0; ; waits++) {
    for (const [i, agent] of round.entries()) {
      const why = hooks.unavailable?.(agent.spec.name);
      if (why) {
        if (waits === 0) skipped.push(`${agent.spec.name} skipped: ${why}`);
        continue;
      }
      const candidate = await ask(agent, request, hooks, calls);
      if (request.signal?.aborted) return { plan: null, agent: null, calls, warnings: [] };
      if (!candidate) continue;
      if (candidate.judgement.warnings.length === 0)
        return { plan: candidate.plan, agent: candidate.agent, calls, warnings: [] };
      candidates.push(candidate);
      // Only an AI agent is worth asking for a better plan: the manual agent's plan is the failures themselves.
      if (!round.slice(i + 1).some((next) => free(next) && next.adapter.run === undefined)) break;
    }
    if (candidates.length > 0 || waits >= MAX_WAITS_PER_STEP) break;
    const waited = await waitForAnyReset(analyzers, hooks, request.signal);
    if ('reason' in waited) {
      if (waited.reason) failure = waited.reason;
      break;
    }
    round = waited.agents;
  }
  failure ??= skipped.length && calls.length === 0 ? skipped.join('; ') : undefined;
  if (candidates.length === 0) return { plan: null, agent: null, calls, warnings: [], ...(failure ? { failure } : {}) };
  let chosen = bestCandidate(candidates);
  const agent = analyzers.find((a) => a.spec.name === chosen.agent);
  const extra =
    chosen.judgement.repeatedCause && candidates.length === 1
      ? hooks.reaskPrompt?.(chosen.judgement.repeatedCause)
      : null;
  if (extra && agent && free(agent) && !request.signal?.aborted) {
    const again = await ask(agent, { ...request, prompt: `${request.prompt}\n\n${extra}` }, hooks, calls);
    // The agent heard what was tried and answered anew: its second answer is the one to use.
    if (again)
      chosen = {
        ...again,
        judgement: {
          ...again.judgement,
          warnings: [
            ...again.judgement.warnings,
            `asked again once about the repeated root cause: ${chosen.judgement.repeatedCause!.slice(0, 120)}`,
          ],
        },
      };
  }
  return { plan: chosen.plan, agent: chosen.agent, calls, warnings: chosen.judgement.warnings };
}

export interface FixAttempt {
  agent: string | null;
  calls: AgentCall[];
  /** Why no agent applied the fix, beyond the calls' own failures. */
  failure?: string;
}

/**
 * Has the first agent that can fix apply the plan; when one fails, `undo` puts back what it
 * half-changed before the next one tries. When all are out and one is cooling down, its reset is waited out.
 */
export async function fixWithChain(
  agents: readonly ResolvedAgent[],
  request: Omit<AgentRequest, 'role'>,
  undo: () => Promise<void>,
  hooks: ChainHooks = {},
): Promise<FixAttempt> {
  const fixers = forRole(agents, 'fix');
  const calls: AgentCall[] = [];
  let round = fixers;
  for (let waits = 0; ; waits++) {
    for (const agent of round) {
      if (hooks.unavailable?.(agent.spec.name)) continue;
      hooks.onStart?.(agent.spec.name);
      const call = await runAgent(agent, {
        ...request,
        role: 'fix',
        timeoutMs: agent.spec.timeoutMs ?? request.timeoutMs,
      });
      calls.push(call);
      await hooks.onCall?.(call);
      if (call.classification === 'ok') return { agent: agent.spec.name, calls };
      if (request.signal?.aborted) return { agent: null, calls };
      await undo();
    }
    if (waits >= MAX_WAITS_PER_STEP) return { agent: null, calls };
    const waited = await waitForAnyReset(fixers, hooks, request.signal);
    if ('reason' in waited) return { agent: null, calls, ...(waited.reason ? { failure: waited.reason } : {}) };
    round = waited.agents;
  }
}
