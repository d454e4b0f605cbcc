import { missingProgram } from '../agents/available.js';
import { Budget } from '../agents/budget.js';
import { Cooldowns } from '../agents/cooldown.js';
import { resolveAgents } from '../agents/resolve.js';
import type { ChainHooks } from '../agents/chain.js';
import type { ResolvedAgent } from '../agents/run-agent.js';
import type { FixcycleConfig } from '../config.js';
import type { EventSink } from '../events.js';
import { resolveRunner } from '../runners/index.js';
import { withoutOwnCoverageGates } from './coverage/own-gates.js';
import { StartError } from '../start.js';
import type { SessionFiles } from '../session/session-files.js';
import type { GenRunOptions } from './run-options.js';

/** The agents that can start, in chain order; a one-line error when none can. */
export async function genAgents(
  root: string,
  options: GenRunOptions,
  config: FixcycleConfig,
  emit: EventSink,
  timeoutMs: number,
): Promise<ResolvedAgent[]> {
  if (!options.agentCmds?.length) await import('../agents/adapters/index.js');
  const resolved = resolveAgents({ agentCmds: options.agentCmds, agentNames: options.agentNames, timeoutMs }, config);
  const missing = resolved.map((agent) => missingProgram(agent, root));
  const agents = resolved.filter((_, i) => !missing[i]);
  if (agents.length === 0)
    throw new StartError(
      `no agent can start: ${missing.filter(Boolean).join('; ')}: install it, pass --agent-cmd "<command>", or use --agent manual`,
    );
  for (const why of missing)
    if (why) emit({ type: 'log', level: 'warn', message: `${why}; the chain goes on without it` });
  return agents;
}

/** The runner gen and team start: the project's command, with its own coverage thresholds and pytest-cov off. */
export async function genRunner(root: string, options: GenRunOptions, config: FixcycleConfig) {
  const runner = await resolveRunner(root, {
    runner: options.runner ?? config.runner,
    testCmd: options.testCmd ?? config.testCommand,
    ...(config.skipParts ? { skipParts: config.skipParts } : {}),
  });
  return withoutOwnCoverageGates(runner, root);
}

/** Cool-downs after rate limits and the --budget, shared with the fix loop through the session's files. */
export function genHooks(session: SessionFiles, options: GenRunOptions): { hooks: ChainHooks; budget: Budget } {
  const cooldowns = Cooldowns.open(session.paths.dir);
  const budget = new Budget(options.budget ?? {}, []);
  return {
    budget,
    hooks: {
      unavailable: cooldowns.unavailable,
      onCall: async (call) => {
        budget.record(call);
        await cooldowns.record(call);
      },
    },
  };
}
