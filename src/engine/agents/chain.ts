import type { FixPlan } from '../session/schema.js';
import type { AgentCall, AgentRequest } from './agent.js';
import { extractPlan } from './plan.js';
import { runAgent, type ResolvedAgent } from './run-agent.js';

/** A plan below this confidence sends the analysis to the next agent (the design's fallback trigger). */
export const MIN_CONFIDENCE = 0.4;

export interface ChainHooks {
  /** Called before each agent starts. */
  onStart?(agent: string): void;
  /** Called with each finished call, after it was judged. */
  onCall?(call: AgentCall): void | Promise<void>;
  /** Returns why an agent must be skipped now (cooling down after a rate limit), or null. */
  unavailable?(agent: string): string | null;
  /** Extra checks on a valid plan (the AI-CLI fallback triggers); returns why it is not good enough, or null. */
  judgePlan?(plan: FixPlan, call: AgentCall): string | null;
}

export interface AnalysisOutcome {
  plan: FixPlan | null;
  agent: string | null;
  calls: AgentCall[];
}

function forRole(agents: readonly ResolvedAgent[], role: 'analyze' | 'fix'): ResolvedAgent[] {
  return agents.filter((a) => !a.spec.roles || a.spec.roles.includes(role));
}

/**
 * Asks each agent of the chain in turn for a fix plan, moving on when one fails, times out,
 * answers without a valid plan, or is not confident enough. No plan from anyone: degraded.
 */
export async function analyzeWithChain(agents: readonly ResolvedAgent[], request: Omit<AgentRequest, 'role'>, hooks: ChainHooks = {}): Promise<AnalysisOutcome> {
  const calls: AgentCall[] = [];
  for (const agent of forRole(agents, 'analyze')) {
    const skip = hooks.unavailable?.(agent.spec.name);
    if (skip) continue;
    hooks.onStart?.(agent.spec.name);
    const call = await runAgent(agent, { ...request, role: 'analyze', timeoutMs: agent.spec.timeoutMs ?? request.timeoutMs });
    let plan: FixPlan | null = null;
    if (call.classification === 'ok') {
      const read = extractPlan(call.finalText);
      if (!read.ok) Object.assign(call, { classification: 'invalid_plan', detail: read.error });
      else if (read.plan.confidence_score < MIN_CONFIDENCE) {
        Object.assign(call, { classification: 'low_confidence', detail: `confidence ${read.plan.confidence_score} < ${MIN_CONFIDENCE}` });
      } else {
        const objection = hooks.judgePlan?.(read.plan, call);
        if (objection) Object.assign(call, { classification: 'invalid_plan', detail: objection });
        else plan = read.plan;
      }
    }
    calls.push(call);
    await hooks.onCall?.(call);
    if (request.signal?.aborted) break;
    if (plan) return { plan, agent: agent.spec.name, calls };
  }
  return { plan: null, agent: null, calls };
}

export interface FixAttempt {
  agent: string | null;
  calls: AgentCall[];
}

/**
 * Has the first agent that can fix apply the plan; when one fails, `undo` puts back what it
 * half-changed before the next one tries.
 */
export async function fixWithChain(
  agents: readonly ResolvedAgent[],
  request: Omit<AgentRequest, 'role'>,
  undo: () => Promise<void>,
  hooks: ChainHooks = {},
): Promise<FixAttempt> {
  const calls: AgentCall[] = [];
  for (const agent of forRole(agents, 'fix')) {
    if (hooks.unavailable?.(agent.spec.name)) continue;
    hooks.onStart?.(agent.spec.name);
    const call = await runAgent(agent, { ...request, role: 'fix', timeoutMs: agent.spec.timeoutMs ?? request.timeoutMs });
    calls.push(call);
    await hooks.onCall?.(call);
    if (call.classification === 'ok') return { agent: agent.spec.name, calls };
    if (request.signal?.aborted) break;
    await undo();
  }
  return { agent: null, calls };
}
