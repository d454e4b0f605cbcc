import type { AgentRole, AgentSpec, CommandContext } from '../agent.js';
import type { CliReading } from '../classify.js';
import { defineCliAdapter, modelArgs, type CliAdapter } from './cli-adapter.js';
import { codexActivity, codexProgress, unwrapReconnecting } from './codex-activity.js';
import { codexCaps, readCodexUserConfig } from './codex-config.js';
import { isObject, num, parseJsonLines, str, sum } from './parse-output.js';

/**
 * `codex exec --json` events, one per line: `turn.failed` (or an `error` event with no completed turn after it)
 * is a failure; the final message is the last completed `agent_message` item; tokens from `turn.completed.usage`.
 * `error` events followed by a completed turn were retries that recovered. A failure reads as the error inside
 * codex's `Reconnecting... n/m (...)` wrapper.
 */
export function readCodexEvents(stdout: string): CliReading {
  const events = parseJsonLines(stdout).filter((e) => typeof e.type === 'string');
  if (events.length === 0) return { structured: false, finalText: '' };
  let finalText = '';
  let tokens: number | undefined;
  let failure: string | undefined;
  let pendingError: string | undefined;
  for (const event of events) {
    const item = isObject(event.item) ? event.item : undefined;
    const kind = item ? (str(item.type) ?? str(item.item_type)) : undefined;
    if (event.type === 'item.completed' && (kind === 'agent_message' || kind === 'assistant_message'))
      finalText = str(item?.text) ?? finalText;
    else if (event.type === 'turn.completed') {
      const usage = isObject(event.usage) ? event.usage : {};
      tokens = sum(tokens, num(usage.input_tokens), num(usage.output_tokens));
      pendingError = undefined;
    } else if (event.type === 'turn.failed') {
      failure = (isObject(event.error) ? str(event.error.message) : undefined) ?? pendingError ?? 'turn failed';
    } else if (event.type === 'error') pendingError = str(event.message) ?? 'error';
  }
  const error = failure ?? pendingError;
  return {
    structured: true,
    finalText,
    ...(error !== undefined ? { error: unwrapReconnecting(error) } : {}),
    ...(tokens !== undefined ? { tokens } : {}),
  };
}

/** Refused connections, sockets closed before or during the answer. */
const UNREACHABLE =
  /Connection failed|stream disconnected before completion|error sending request|waiting for network/i;
/** What codex 0.169 says instead of the body of a 500. */
const HIGH_DEMAND = /currently experiencing high demand/i;

/** A codex whose model shows no progress for this long is retrying a long retry-after or waits for headers that never come. */
const STALL_MS = 40_000;

const base = defineCliAdapter({
  name: 'codex',
  bin: 'codex',
  args(role, model, extra) {
    return [
      'exec',
      '--json',
      '--sandbox',
      role === 'analyze' ? 'read-only' : 'workspace-write',
      ...modelArgs('--model', model),
      ...extra,
      '-',
    ];
  },
  read: (stdout) => readCodexEvents(stdout),
});

/**
 * Codex CLI: `codex exec --json ... -` reads the prompt from stdin. `--sandbox read-only` for analysis (writes
 * and `sed -i` are refused inside its sandbox), `--sandbox workspace-write` for the fix (exec never asks for
 * approval). The user's own `CODEX_HOME` config (their `[model_providers]` entry is how codex reaches a gateway:
 * it ignores OPENAI_BASE_URL) is used as it is; fixcycle only adds `-c` caps on retries the user did not set.
 */
export const codexAdapter: CliAdapter = {
  ...base,
  buildCommand(spec: AgentSpec, role: AgentRole, context?: CommandContext) {
    const caps = codexCaps(readCodexUserConfig(context?.userEnv ?? process.env));
    const argv = base.buildCommand(spec, role, context).argv;
    // The caps go before the agent's own extra arguments, so an explicit `-c` there still wins.
    return { argv: [...argv.slice(0, 5), ...caps, ...argv.slice(5)], stdin: true, stallMs: STALL_MS, maxRetries: 1 };
  },
  activity: codexActivity,
  progress: codexProgress,
  interpret(raw) {
    const result = base.interpret(raw);
    const reading = readCodexEvents(raw.stdout);
    const error = reading.error;
    if (result.classification !== 'failed' || !error) return result;
    if (!result.detail?.startsWith('codex reported an error: ')) return result;
    if (/missing environment variable/i.test(error)) {
      return {
        ...result,
        classification: 'auth_error',
        detail: `not authenticated: ${error} (set the API key your codex model provider names, then resume)`,
      };
    }
    // codex's own words for failures whose status or cause it does not print.
    if (UNREACHABLE.test(error)) return { ...result, detail: `API unreachable: ${error}` };
    if (HIGH_DEMAND.test(error))
      return { ...result, detail: `API server error: ${error} (codex's text for a 5xx answer)` };
    return result;
  },
};
