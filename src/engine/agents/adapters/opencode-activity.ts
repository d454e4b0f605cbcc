import type { AgentActivity, Progress } from '../agent.js';
import { jsonLine, textActivity } from './activity-text.js';
import { isObject, num, str, sum } from './parse-output.js';

/** opencode's own tools by what they do. */
const ACTIONS: Record<string, 'read' | 'edit' | 'write' | 'run' | 'search'> = {
  read: 'read',
  list: 'read',
  edit: 'edit',
  patch: 'edit',
  multiedit: 'edit',
  write: 'write',
  bash: 'run',
  glob: 'search',
  grep: 'search',
  webfetch: 'search',
};

/** `--print-logs --log-level ERROR` prints one of these on stderr for every failed model request, retried or not. */
const STREAM_ERROR = /\bmessage="stream error".*?\berror\.error="((?:[^"\\]|\\.)*)"/;

/** The error of a failed model request from opencode's log line (`AI_APICallError: Rate limit reached`), or undefined. */
export function streamError(line: string): string | undefined {
  // The session-title request (`small=true agent=title`) fails too when the API does; opencode ignores it.
  if (/\bsmall=true\b/.test(line)) return undefined;
  const match = STREAM_ERROR.exec(line);
  return match ? match[1]!.replace(/\\"/g, '"').replace(/^AI_APICallError:\s*/, '') : undefined;
}

function toolActivity(part: Record<string, unknown>): AgentActivity[] {
  const state = isObject(part.state) ? part.state : {};
  const input = isObject(state.input) ? state.input : {};
  let tool = str(part.tool) ?? 'tool';
  // A tool the model called that this agent does not have: shown as the tool it tried, refused.
  const refused = tool === 'invalid' || state.status === 'error';
  if (tool === 'invalid') tool = str(input.tool) ?? tool;
  const action = ACTIONS[tool] ?? 'other';
  const target =
    str(input.filePath) ??
    str(input.command) ??
    str(input.pattern) ??
    str(input.url) ??
    str(input.path) ??
    str(input.description);
  return [{ kind: 'tool', tool, action, ...(target ? { target } : {}), ...(refused ? { denied: true } : {}) }];
}

/**
 * One line of `opencode run --format json` as what the agent is doing: tool calls (read, edit, bash...) once they
 * finish, text, tokens and cost per step, the final error; on stderr, each failed model request (opencode retries
 * 5 times in silence otherwise).
 */
export function opencodeActivity(line: string, stream: 'stdout' | 'stderr'): AgentActivity[] {
  if (stream === 'stderr') {
    const error = streamError(line);
    return error === undefined ? [] : [{ kind: 'retry', detail: error }];
  }
  const event = jsonLine(line);
  if (!event) return [];
  const part = isObject(event.part) ? event.part : {};
  switch (event.type) {
    case 'tool_use':
      return toolActivity(part);
    case 'text':
      return textActivity(str(part.text));
    case 'step_finish': {
      const tokens = isObject(part.tokens) ? part.tokens : {};
      const total = sum(num(tokens.input), num(tokens.output), num(tokens.reasoning));
      const costUsd = num(part.cost);
      return total === undefined && costUsd === undefined
        ? []
        : [
            {
              kind: 'usage',
              ...(total !== undefined ? { tokens: total } : {}),
              ...(costUsd !== undefined ? { costUsd } : {}),
            },
          ];
    }
    case 'error': {
      const error = isObject(event.error) ? event.error : {};
      const data = isObject(error.data) ? error.data : {};
      return [{ kind: 'error', detail: str(data.message) ?? str(error.name) ?? 'error' }];
    }
    default:
      return [];
  }
}

/**
 * Whether a line of `opencode run --format json` is the model at work: any part event (steps, text, reasoning,
 * tool calls, which it prints once they ended). `error` events and its log on stderr are not.
 */
export function opencodeProgress(line: string, stream: 'stdout' | 'stderr'): Progress | null {
  const event = stream === 'stdout' ? jsonLine(line) : undefined;
  return event && event.type !== 'error' && 'part' in event ? { toolsStarted: 0, toolsEnded: 0 } : null;
}
