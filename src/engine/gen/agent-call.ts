import { join } from 'node:path';
import { writeTextAtomic } from '../session/atomic.js';
import { throughLink } from '../session/paths.js';
import type { AgentCall } from '../agents/agent.js';
import { relativeActivity } from '../agents/activity-line.js';
import { runAgent } from '../agents/run-agent.js';
import type { GenContext } from './gen-context.js';

/** The gen roles: `analyze` (read-only) and `generate`, which writes tests with the adapter's write-capable (fix) mode. */
export type GenRole = 'analyze' | 'generate';

function transcript(calls: readonly AgentCall[], role: GenRole): string {
  return calls
    .map(
      (c) =>
        `===== ${c.agent} (${role}) exit ${c.exitCode ?? '-'} ${c.classification}${c.detail ? `: ${c.detail}` : ''} in ${c.durationMs} ms =====\n--- stdout ---\n${c.stdout}\n--- stderr ---\n${c.stderr}\n`,
    )
    .join('\n');
}

/**
 * Runs the agent chain for one gen task: each agent in turn until `accept` takes an answer. `accept` returns
 * null for a good answer or why it is not; a write-mode agent that fails has its changes undone by `undo`.
 */
export async function callChain<T>(
  ctx: GenContext,
  request: {
    role: GenRole;
    taskId: string;
    taskPath: string;
    prompt: string;
    transcriptPath: string;
    undo?: () => Promise<void>;
  },
  accept: (call: AgentCall) => { ok: true; value: T } | { ok: false; why: string },
): Promise<{ value: T | null; agent: string | null; calls: AgentCall[] }> {
  const calls: AgentCall[] = [];
  const paths = ctx.session.paths;
  const adapterRole = request.role === 'generate' ? 'fix' : 'analyze';
  // Shown as what the call is for (`generate`, as agent-calls.jsonl says), not the adapter mode it runs in.
  const eventRole = request.role;
  const eligible = ctx.agents.filter((a) => !a.spec.roles || a.spec.roles.includes(adapterRole));
  let result: { value: T | null; agent: string | null } = { value: null, agent: null };
  for (const agent of eligible) {
    if (ctx.hooks.unavailable?.(agent.spec.name)) continue;
    ctx.emit({ type: 'agent', iteration: 0, agent: agent.spec.name, role: eventRole, status: 'started' });
    const call = await runAgent(agent, {
      role: adapterRole,
      prompt: request.prompt,
      cwd: ctx.repo.root,
      env: {
        FIXCYCLE_ROLE: request.role,
        FIXCYCLE_TASK_ID: request.taskId,
        FIXCYCLE_TASK_PATH: throughLink(ctx.repo.root, request.taskPath),
        FIXCYCLE_SESSION_DIR: throughLink(ctx.repo.root, paths.dir),
        FIXCYCLE_ITERATION: '0',
      },
      timeoutMs: agent.spec.timeoutMs ?? ctx.options.agentTimeoutMs,
      signal: ctx.signal,
      onLines: (lines) => ctx.emit({ type: 'output', lines }),
      // As in the fix loop: a CLI's streamed events become activities (`✎ write test/x.test.js`), not raw JSON lines.
      onActivity: (activity) =>
        ctx.emit({
          type: 'agent-activity',
          iteration: 0,
          agent: agent.spec.name,
          role: eventRole,
          activity: relativeActivity(activity, ctx.repo.root),
        }),
      privateDir: join(paths.processDir, 'agents', agent.spec.name),
    });
    if (call.classification === 'ok') {
      const verdict = accept(call);
      if (verdict.ok) result = { value: verdict.value, agent: agent.spec.name };
      else Object.assign(call, { classification: 'invalid_plan', detail: verdict.why });
    }
    calls.push(call);
    ctx.emit({
      type: 'agent',
      iteration: 0,
      agent: call.agent,
      role: eventRole,
      status: 'finished',
      classification: call.classification,
      detail: call.detail,
      durationMs: call.durationMs,
      tokens: call.tokens,
      costUsd: call.costUsd,
    });
    await ctx.session.appendAgentCall({
      at: new Date().toISOString(),
      task: request.taskId,
      agent: call.agent,
      role: request.role,
      duration_ms: call.durationMs,
      exit_code: call.exitCode,
      classification: call.classification,
      detail: call.detail,
      tokens: call.tokens,
      cost_usd: call.costUsd,
    });
    await ctx.hooks.onCall?.(call);
    if (result.agent || ctx.signal.aborted) break;
    await request.undo?.();
  }
  await writeTextAtomic(request.transcriptPath, transcript(calls, request.role));
  return { ...result, calls };
}
