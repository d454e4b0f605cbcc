import type { CliReading } from '../classify.js';
import { defineCliAdapter, modelArgs } from './cli-adapter.js';
import { isObject, num, parseJsonLines, str, sum } from './parse-output.js';

/**
 * `codex exec --json` events, one per line: `turn.failed` (or an `error` event with no completed turn after it)
 * is a failure; the final message is the last completed `agent_message` item; tokens from `turn.completed.usage`.
 * `error` events followed by a completed turn were retries that recovered.
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
    if (event.type === 'item.completed' && (kind === 'agent_message' || kind === 'assistant_message')) finalText = str(item?.text) ?? finalText;
    else if (event.type === 'turn.completed') {
      const usage = isObject(event.usage) ? event.usage : {};
      tokens = sum(tokens, num(usage.input_tokens), num(usage.output_tokens));
      pendingError = undefined;
    } else if (event.type === 'turn.failed') {
      failure = (isObject(event.error) ? str(event.error.message) : undefined) ?? pendingError ?? 'turn failed';
    } else if (event.type === 'error') pendingError = str(event.message) ?? 'error';
  }
  const error = failure ?? pendingError;
  return { structured: true, finalText, ...(error !== undefined ? { error } : {}), ...(tokens !== undefined ? { tokens } : {}) };
}

/**
 * Codex CLI: `codex exec --json ... -` reads the prompt from stdin. `--sandbox read-only` for analysis,
 * `--sandbox workspace-write` for the fix (exec never asks for approval).
 */
export const codexAdapter = defineCliAdapter({
  name: 'codex',
  bin: 'codex',
  args(role, model, extra) {
    return ['exec', '--json', '--sandbox', role === 'analyze' ? 'read-only' : 'workspace-write', ...modelArgs('--model', model), ...extra, '-'];
  },
  read: (stdout) => readCodexEvents(stdout),
});
