import type { CliReading } from '../classify.js';
import { defineCliAdapter, modelArgs } from './cli-adapter.js';
import { isObject, num, parseJsonLines, str, sum } from './parse-output.js';

/**
 * `opencode run --format json` events: `text` parts (the final message is the text after the last
 * `step_start`), `step_finish` parts with tokens and cost, and `error` events `{error: {name, data: {message}}}`,
 * printed while the process still exits 0.
 */
export function readOpencodeEvents(stdout: string): CliReading {
  const events = parseJsonLines(stdout).filter((e) => typeof e.type === 'string' && ('part' in e || 'error' in e));
  if (events.length === 0) return { structured: false, finalText: '' };
  let texts: string[] = [];
  let tokens: number | undefined;
  let costUsd: number | undefined;
  const errors: string[] = [];
  for (const event of events) {
    const part = isObject(event.part) ? event.part : {};
    if (event.type === 'step_start') texts = [];
    else if (event.type === 'text') texts.push(str(part.text) ?? '');
    else if (event.type === 'step_finish') {
      const t = isObject(part.tokens) ? part.tokens : {};
      tokens = sum(tokens, num(t.input), num(t.output), num(t.reasoning));
      costUsd = sum(costUsd, num(part.cost));
    } else if (event.type === 'error') {
      const error = isObject(event.error) ? event.error : {};
      const data = isObject(error.data) ? error.data : {};
      const status = num(data.statusCode);
      errors.push([str(error.name), str(data.message), status !== undefined ? `(status ${status})` : undefined, isObject(data.responseHeaders) ? JSON.stringify(data.responseHeaders) : undefined].filter(Boolean).join(': '));
    }
  }
  return {
    structured: true,
    finalText: texts.join('\n'),
    ...(errors.length ? { error: errors.join('\n') } : {}),
    ...(tokens !== undefined ? { tokens } : {}),
    ...(costUsd !== undefined ? { costUsd } : {}),
  };
}

/**
 * OpenCode: `opencode run --format json`, the prompt on stdin (appended to the message). The read-only
 * `plan` agent analyses, the `build` agent fixes.
 */
export const opencodeAdapter = defineCliAdapter({
  name: 'opencode',
  bin: 'opencode',
  args(role, model, extra) {
    return ['run', '--format', 'json', '--agent', role === 'analyze' ? 'plan' : 'build', ...modelArgs('--model', model), ...extra];
  },
  read: (stdout) => readOpencodeEvents(stdout),
});
