import { runCommand } from '../process/run-command.js';
import type { AgentAdapter, AgentCall, AgentRequest, AgentSpec } from './agent.js';

/** A configured agent with the adapter that speaks its CLI. */
export interface ResolvedAgent {
  spec: AgentSpec;
  adapter: AgentAdapter;
}

/** Runs one agent in one role through the agent command protocol and judges how it went. */
export async function runAgent(agent: ResolvedAgent, request: AgentRequest): Promise<AgentCall> {
  // An agent without a CLI (manual) runs the call itself.
  if (agent.adapter.run) return { agent: agent.spec.name, role: request.role, ...(await agent.adapter.run(agent.spec, request)) };
  const { argv, stdin, promptArg } = agent.adapter.buildCommand(agent.spec, request.role);
  const command = promptArg ? [...argv, request.prompt] : argv;
  const stdout: string[] = [];
  const stderr: string[] = [];
  const result = await runCommand(command, {
    cwd: request.cwd,
    env: request.env,
    timeoutMs: request.timeoutMs,
    signal: request.signal,
    ...(stdin ? { input: request.prompt } : {}),
    displayLine: (line, stream) => {
      (stream === 'stdout' ? stdout : stderr).push(line);
      return line;
    },
    onLines: request.onLines,
  });
  const raw = { exitCode: result.exitCode, timedOut: result.timedOut, stdout: stdout.join('\n'), stderr: stderr.join('\n') };
  const base = { agent: agent.spec.name, role: request.role, exitCode: result.exitCode, timedOut: result.timedOut, durationMs: result.durationMs, stdout: raw.stdout, stderr: raw.stderr };
  if (result.spawnError) {
    return { ...base, classification: 'not_found', detail: `${result.spawnError}: install it or fix the agent's command`, finalText: '' };
  }
  if (result.aborted) return { ...base, classification: 'failed', detail: 'stopped by the user', finalText: raw.stdout };
  return { ...base, ...agent.adapter.interpret(raw) };
}
