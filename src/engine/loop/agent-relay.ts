import { join } from 'node:path';
import type { AgentActivity, AgentRole } from '../agents/agent.js';
import { relativeActivity } from '../agents/activity-line.js';
import type { LoopContext } from './context.js';

/** What the chain's requests need to stream an agent's activity and give it a private folder. */
export interface AgentRelay {
  /** Called as each agent of the chain starts. */
  onStart(agent: string): void;
  onActivity(activity: AgentActivity): void;
  /** `<session>/.process/agents/<agent>`: git-excluded with the rest of the session folder. */
  readonly privateDir: string;
}

/**
 * Relays the running agent's activities as engine events. The chain runs one agent at a time and says which
 * one starts, so the relay follows it; the private folder is read when each agent's request is made.
 */
export function agentRelay(ctx: LoopContext, iteration: number, role: AgentRole): AgentRelay {
  let agent = '';
  const root = ctx.repo.root;
  return {
    onStart(name) {
      agent = name;
    },
    onActivity(activity) {
      ctx.emit({ type: 'agent-activity', iteration, agent, role, activity: relativeActivity(activity, root) });
    },
    get privateDir() {
      return join(ctx.session.paths.processDir, 'agents', agent || 'agent');
    },
  };
}
