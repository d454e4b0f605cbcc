import { writeTextAtomic } from '../session/atomic.js';
import type { AgentCall } from '../agents/agent.js';
import { runAgent } from '../agents/run-agent.js';
import type { TeamContext } from './team-context.js';

/**
 * One team role as an agent call through the agent protocol: each agent of the chain in turn until one answers.
 * (gen's callChain does the same but is bound to a gen session's files and state; this is its context-free twin.)
 */
export async function callAgent(
  ctx: TeamContext,
  request: {
    role: 'analyze' | 'generate';
    taskId: string;
    layer?: string;
    prompt: string;
    cwd: string;
    transcriptPath: string;
    extraEnv?: Record<string, string>;
  },
): Promise<{ call: AgentCall | null; calls: AgentCall[] }> {
  const adapterRole = request.role === 'generate' ? 'fix' : 'analyze';
  const calls: AgentCall[] = [];
  let good: AgentCall | null = null;
  for (const agent of ctx.agents.filter((a) => !a.spec.roles || a.spec.roles.includes(adapterRole))) {
    const call = await runAgent(agent, {
      role: adapterRole,
      prompt: request.prompt,
      cwd: request.cwd,
      env: {
        FIXCYCLE_ROLE: request.role,
        FIXCYCLE_TASK_ID: request.taskId,
        ...(request.layer ? { FIXCYCLE_LAYER: request.layer } : {}),
        FIXCYCLE_SESSION_DIR: ctx.paths.dir,
        FIXCYCLE_DISCOVERIES: ctx.paths.discoveries,
        FIXCYCLE_ITERATION: '0',
        ...request.extraEnv,
      },
      timeoutMs: agent.spec.timeoutMs ?? ctx.options.agentTimeoutMs,
      signal: ctx.signal,
      onLines: (lines) => ctx.emit({ type: 'output', lines }),
    });
    calls.push(call);
    if (call.classification === 'ok') {
      good = call;
      break;
    }
    if (ctx.signal.aborted) break;
  }
  const transcript = calls
    .map(
      (c) =>
        `===== ${c.agent} (${request.role} ${request.taskId}) exit ${c.exitCode ?? '-'} ${c.classification}${c.detail ? `: ${c.detail}` : ''} in ${c.durationMs} ms =====\n--- stdout ---\n${c.stdout}\n--- stderr ---\n${c.stderr}\n`,
    )
    .join('\n');
  await writeTextAtomic(request.transcriptPath, transcript);
  return { call: good, calls };
}

/** Why no agent answered, in one line. */
export function noAnswer(calls: readonly AgentCall[]): string {
  return `no agent answered (${calls.map((c) => `${c.agent}: ${c.classification}${c.detail ? ` — ${c.detail.slice(0, 120)}` : ''}`).join(', ') || 'no agent available'})`;
}
