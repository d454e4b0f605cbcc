import { readFileSync } from 'node:fs';
import { checkFix } from '../guard/index.js';
import type { LoopContext } from '../loop/context.js';
import type { LoopPolicies } from '../loop/loop.js';
import type { FixHistoryEntry, IterationState } from '../session/schema.js';
import { Budget, type BudgetLimits } from './budget.js';
import { Cooldowns, type CooldownOptions } from './cooldown.js';
import { renderReaskBlock } from '../prompts/reask.js';
import { makeResetWaiter } from './reset-wait.js';
import { makePlanJudge, unjudgedAgents } from './triggers.js';

/** What the AI-CLI layer adds to a loop run. */
export interface AgentPolicyOptions {
  /** Parsed `--budget` (parseBudget); no limit when absent. */
  budget?: BudgetLimits;
  /** Cool-down back-off settings; the defaults suit real CLIs. */
  cooldown?: CooldownOptions;
  /** The longest single wait for a rate limit to reset; default MAX_RESET_WAIT_MS (15 min). */
  maxResetWaitMs?: number;
}

/** The loop's policies, with the budget and cool-downs they keep, for the summary. */
export interface AgentPolicies extends LoopPolicies {
  budget: Budget;
  cooldowns: Cooldowns;
}

/** The calls of the session so far (agent-calls.jsonl), so a resumed session keeps counting its budget. */
function previousCalls(path: string): { durationMs: number; costUsd?: number; tokens?: number }[] {
  let text = '';
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return [];
  }
  return text.split('\n').flatMap((line) => {
    try {
      const c = JSON.parse(line) as { duration_ms?: number; cost_usd?: number; tokens?: number };
      return [
        {
          durationMs: c.duration_ms ?? 0,
          ...(c.cost_usd !== undefined ? { costUsd: c.cost_usd } : {}),
          ...(c.tokens !== undefined ? { tokens: c.tokens } : {}),
        },
      ];
    } catch {
      return []; // a torn last line
    }
  });
}

/**
 * Cool-downs after rate limits (and waiting out their reset when no other agent is left), the design's plan
 * quality signals with the re-ask of a stuck analysis, the guard against fixing by cheating, and the `--budget`,
 * as the loop's policies: `startLoop({ ..., policies: (ctx) => agentPolicies(ctx, { budget }) })`.
 */
export function agentPolicies(ctx: LoopContext, options: AgentPolicyOptions = {}): AgentPolicies {
  const paths = ctx.session.paths;
  const cooldowns = Cooldowns.open(paths.dir, options.cooldown);
  const budget = new Budget(options.budget ?? {}, previousCalls(paths.agentCalls.replace(/\.json$/, '.jsonl')));
  const exempt = unjudgedAgents(ctx.agents);
  return {
    budget,
    cooldowns,
    chainHooks: (state: IterationState, history: FixHistoryEntry[]) => {
      return {
        unavailable: cooldowns.unavailable,
        onCall: async (call) => {
          budget.record(call);
          await cooldowns.record(call);
        },
        judgePlan: makePlanJudge({ repo: ctx.repo.root, iteration: state.current_iteration, history, exempt }),
        resetAt: (agent) => cooldowns.resetAt(agent),
        waitForReset: makeResetWaiter({
          emit: ctx.emit,
          iteration: state.current_iteration,
          maxWaitMs: options.maxResetWaitMs,
          budgetExceeded: () => budget.exceeded(),
        }),
        reaskPrompt: (cause) => renderReaskBlock(cause, history),
      };
    },
    checkFix: async ({ changedFiles, plan }) => {
      const diff = await ctx.repo.diff(changedFiles);
      const baseline = (await ctx.session.readBaseline()) ?? [];
      const verdict = checkFix({
        repo: ctx.repo.root,
        changedFiles,
        diff,
        plan,
        baselineTestFiles: baseline.flatMap((t) => (t.file ? [t.file] : [])),
        updateSnapshots: ctx.options.updateSnapshots ?? false,
      });
      return verdict.ok ? { rejected: null, testEdits: verdict.testEdits } : { rejected: verdict.reasons };
    },
    budgetExceeded: () => budget.exceeded(),
  };
}
