import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { runCommand } from '../process/run-command.js';
import type { AgentActivity, AgentAdapter, AgentCall, AgentCommand, AgentRequest, AgentSpec } from './agent.js';
import { KIND_LABEL } from './error-kind.js';
import { DEFAULT_TOOL_STALL_MS, progressOfActivities, progressWatchdog } from './progress-watchdog.js';

/** A configured agent with the adapter that speaks its CLI. */
export interface ResolvedAgent {
  spec: AgentSpec;
  adapter: AgentAdapter;
}

/** Writes the settings files an adapter asked for into its private folder. */
function writePrivateFiles(dir: string, files: Record<string, string> | undefined): void {
  for (const [rel, content] of Object.entries(files ?? {})) {
    const path = join(dir, rel);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content, { mode: 0o600 });
  }
}

/** A detail that names why the model could not work: the API was unreachable, timed out or failed (rate limits and auth are read before). */
const SAID_WHY = new RegExp(`^(${KIND_LABEL.connection}|${KIND_LABEL.timeout}|${KIND_LABEL.server}): `);

/** Runs one agent in one role through the agent command protocol and judges how it went. */
export async function runAgent(agent: ResolvedAgent, request: AgentRequest): Promise<AgentCall> {
  // An agent without a CLI (manual) runs the call itself.
  if (agent.adapter.run)
    return { agent: agent.spec.name, role: request.role, ...(await agent.adapter.run(agent.spec, request)) };
  if (request.privateDir) return runCli(agent, request, request.privateDir);
  // No session to keep the settings in: a folder for this call alone, removed after it (symlinks inside are not followed).
  const dir = mkdtempSync(join(tmpdir(), `fixcycle-${agent.spec.name}-`));
  try {
    return await runCli(agent, request, dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function runCli(agent: ResolvedAgent, request: AgentRequest, privateDir: string): Promise<AgentCall> {
  mkdirSync(privateDir, { recursive: true });
  const command: AgentCommand = agent.adapter.buildCommand(agent.spec, request.role, {
    privateDir,
    userEnv: { ...process.env, ...request.env },
  });
  writePrivateFiles(privateDir, command.files);
  const argv = command.promptArg ? [...command.argv, request.prompt] : command.argv;
  const stdout: string[] = [];
  const stderr: string[] = [];
  const watchdog = progressWatchdog(command.stallMs, command.toolStallMs ?? DEFAULT_TOOL_STALL_MS, request.signal);
  const retries: string[] = [];
  let reportedRetries = 0;
  let attemptOpen = false;
  const onActivity = (activity: AgentActivity, silent = false): void => {
    request.onActivity?.(activity);
    if (activity.kind !== 'retry' || command.maxRetries === undefined) return;
    retries.push(activity.detail);
    if (!silent) reportedRetries++;
    if (retries.length > command.maxRetries) watchdog.giveUp();
  };
  // A request that got no answer before the next began was retried in silence (see AgentCommand.attemptLine).
  const watchAttempts = (line: string, stream: 'stdout' | 'stderr'): void => {
    if (stream === 'stdout') attemptOpen = false;
    else if (command.attemptLine?.test(line)) {
      if (attemptOpen)
        onActivity({ kind: 'retry', detail: 'API unreachable: a model request got no answer and was retried' }, true);
      attemptOpen = true;
    }
  };
  const result = await runCommand(argv, {
    cwd: request.cwd,
    // The adapter built its variables from the user's (request.env included), so its merged values win.
    // PWD as a shell would set it: opencode takes its project folder from PWD, not from its working directory.
    env: { ...request.env, ...command.env, PWD: request.cwd },
    timeoutMs: request.timeoutMs,
    signal: watchdog.signal,
    ...(command.stdin ? { input: request.prompt } : {}),
    displayLine: (line, stream) => {
      (stream === 'stdout' ? stdout : stderr).push(line);
      watchdog.line();
      watchAttempts(line, stream);
      const activities = agent.adapter.activity?.(line, stream) ?? [];
      const step = agent.adapter.progress ? agent.adapter.progress(line, stream) : progressOfActivities(activities);
      if (step) watchdog.progress(step);
      if (!agent.adapter.activity) return line;
      for (const activity of activities) onActivity(activity);
      // Streamed events are shown as activities; the raw lines stay in the call's record.
      return request.onActivity ? null : line;
    },
    onLines: request.onLines,
  }).finally(() => watchdog.stop());
  const raw = {
    exitCode: result.exitCode,
    timedOut: result.timedOut,
    stdout: stdout.join('\n'),
    stderr: stderr.join('\n'),
  };
  const base = {
    agent: agent.spec.name,
    role: request.role,
    exitCode: result.exitCode,
    timedOut: result.timedOut,
    durationMs: result.durationMs,
    stdout: raw.stdout,
    stderr: raw.stderr,
  };
  if (result.spawnError) {
    return {
      ...base,
      classification: 'not_found',
      detail: `${result.spawnError}: install it or fix the agent's command`,
      finalText: '',
    };
  }
  if (watchdog.stalled() && !request.signal?.aborted) {
    const seconds = Math.round(watchdog.limitMs() / 1000);
    const read = agent.adapter.interpret({ ...raw, timedOut: false });
    // What the CLI printed while the model did nothing (a 429 or a refused connection it was retrying) says more than "stalled".
    if (read.classification === 'rate_limited' || read.classification === 'auth_error')
      return { ...base, ...read, timedOut: true };
    if (read.classification !== 'ok' && SAID_WHY.test(read.detail ?? ''))
      return {
        ...base,
        ...read,
        timedOut: true,
        detail: `${read.detail} (no progress of the model for ${seconds} s; killed)`,
      };
    return {
      ...base,
      ...read,
      classification: 'timeout',
      timedOut: true,
      detail: `stalled: no progress of the model for ${seconds} s (retrying or hung) and was killed`,
    };
  }
  if (command.maxRetries !== undefined && retries.length > command.maxRetries && !request.signal?.aborted) {
    const read = agent.adapter.interpret({ ...raw, exitCode: raw.exitCode ?? 1, timedOut: false });
    const said = read.classification === 'ok' ? 'failed' : read.classification;
    // Only silent retries and no error the CLI reported: what the silence means says more than its exit.
    const detail = reportedRetries === 0 && said === 'failed' ? retries.at(-1) : (read.detail ?? retries.at(-1));
    return {
      ...base,
      ...read,
      classification: said,
      detail: `${detail} (stopped after ${retries.length} attempts; the CLI would go on retrying)`,
    };
  }
  if (result.aborted)
    return { ...base, classification: 'failed', detail: 'stopped by the user', finalText: raw.stdout };
  return { ...base, ...agent.adapter.interpret(raw) };
}
