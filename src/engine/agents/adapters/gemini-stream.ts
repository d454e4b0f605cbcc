import type { AgentActivity, Progress } from '../agent.js';
import type { CliReading } from '../classify.js';
import { jsonLine, textActivity } from './activity-text.js';
import { isObject, num, parseJsonDocument, parseJsonLines, str, sum, type Json } from './parse-output.js';
import { withEarlierPlan } from './message-stream.js';
import { deniedToolName, toolActivity } from './tool-action.js';

/**
 * Gemini CLI's `-o stream-json`: one JSON object a line, `init`, `message` (user, then the assistant's text
 * in `delta` pieces), `tool_use`, `tool_result`, `error` (warnings and stops) and a closing `result`
 * `{status: "success" | "error", error?, stats}`. Errors raised before the stream starts (untrusted folder,
 * bad auth) come as a JSON object on stderr instead, with stdout empty.
 */

const EVENT_TYPES = new Set(['init', 'message', 'tool_use', 'tool_result', 'error', 'result']);

function streamEvents(stdout: string): Json[] {
  return parseJsonLines(stdout).filter(
    (e) => typeof e.type === 'string' && EVENT_TYPES.has(e.type) && 'timestamp' in e,
  );
}

/** `{error: {message, code}}` printed last on stderr (pretty-printed, after any stack dump). */
export function lastJsonErrorOnStderr(stderr: string): string | undefined {
  const lines = stderr.split('\n').slice(-300);
  for (let i = lines.length - 1; i >= 0; i--) {
    if (!lines[i]!.startsWith('{')) continue;
    for (let j = lines.length; j > i; j--) {
      let doc: unknown;
      try {
        doc = JSON.parse(lines.slice(i, j).join('\n'));
      } catch {
        continue;
      }
      if (isObject(doc) && isObject(doc.error)) return errorText(doc.error);
      break;
    }
  }
  return undefined;
}

function errorText(error: Json): string {
  const message = str(error.message) ?? str(error.type) ?? 'error';
  const code = num(error.code);
  return code !== undefined && !message.includes(String(code)) ? `${message} (code ${code})` : message;
}

/**
 * The answer: the assistant's text after its last tool call (earlier turns mostly announce the calls), or
 * all of it when only an earlier turn holds a JSON object (the plan, then a closing "Done.").
 */
function finalAnswer(events: Json[]): string {
  const turns: string[] = [''];
  for (const e of events) {
    if ((e.type === 'tool_use' || e.type === 'tool_result') && turns.at(-1)) turns.push('');
    if (e.type === 'message' && e.role === 'assistant') turns[turns.length - 1] += str(e.content) ?? '';
  }
  const texts = turns.filter((t) => t.trim());
  const last = turns.at(-1)!.trim() ? turns.at(-1)! : texts.join('');
  return withEarlierPlan(last, texts);
}

/** `gemini -o json`: `{session_id, response, stats, error?}` (the format before streaming). */
export function readGeminiJson(stdout: string): CliReading {
  const doc = parseJsonDocument(stdout);
  if (!isObject(doc) || !('response' in doc || 'error' in doc)) return { structured: false, finalText: '' };
  let tokens: number | undefined;
  const models = isObject(doc.stats) && isObject(doc.stats.models) ? doc.stats.models : {};
  for (const model of Object.values(models)) {
    if (isObject(model) && isObject(model.tokens)) tokens = sum(tokens, num(model.tokens.total));
  }
  const error = isObject(doc.error) ? errorText(doc.error) : undefined;
  return {
    structured: true,
    finalText: str(doc.response) ?? '',
    ...(error !== undefined ? { error } : {}),
    ...(tokens !== undefined ? { tokens } : {}),
  };
}

/** Reads a finished gemini run from both streams. */
export function readGeminiStream(stdout: string, stderr: string): CliReading {
  const events = streamEvents(stdout);
  if (!events.length) {
    const json = readGeminiJson(stdout);
    if (json.structured) return json;
    const error = lastJsonErrorOnStderr(stderr);
    return error !== undefined ? { structured: true, finalText: '', error } : json;
  }
  const finalText = finalAnswer(events);
  const result = [...events].reverse().find((e) => e.type === 'result');
  const stats = isObject(result?.stats) ? result.stats : {};
  const tokens = num(stats.total_tokens);
  const usage = tokens !== undefined ? { tokens } : {};
  const fatal = events.filter((e) => e.type === 'error' && e.severity === 'error').at(-1);
  if (!result) {
    const error = (fatal ? str(fatal.message) : undefined) ?? lastJsonErrorOnStderr(stderr);
    return { structured: false, finalText, ...(error !== undefined ? { error } : {}), ...usage };
  }
  const error =
    result.status === 'success'
      ? undefined
      : isObject(result.error)
        ? errorText(result.error)
        : `result status ${String(result.status)}`;
  return { structured: true, finalText, ...(error !== undefined ? { error } : {}), ...usage };
}

/** One line gemini printed, as what the agent is doing. */
export function geminiActivity(line: string, stream: 'stdout' | 'stderr'): AgentActivity[] {
  if (stream === 'stderr') {
    // "Attempt 1 failed with status 429. Retrying with backoff...", "Attempt 1 failed: <message>. Retrying after 5171ms...",
    // "Attempt 1 failed. Retrying with backoff... Error: exception TypeError: fetch failed sending request"
    const attempt =
      /^Attempt (\d+) failed(?: with status (\d+))?(?:: (.*?)(?:\.\s*Retrying|\.\s*Max attempts|$))?/.exec(line);
    // The last attempt says "Max attempts reached": no retry follows, the result event reports the failure.
    if (!attempt || line.includes('Max attempts reached')) return [];
    const wait = /Retrying after (\d+)ms/.exec(line);
    const cause = attempt[2] ? ` (HTTP ${attempt[2]})` : attempt[3] ? `: ${attempt[3].trim()}` : '';
    const detail = `API call failed${cause}, attempt ${attempt[1]}`;
    return [{ kind: 'retry', detail, ...(wait ? { waitMs: Number(wait[1]) } : {}) }];
  }
  if (!line.startsWith('{')) return [];
  let event: unknown;
  try {
    event = JSON.parse(line);
  } catch {
    return [];
  }
  if (!isObject(event)) return [];
  switch (event.type) {
    case 'message':
      return event.role === 'assistant' ? textActivity(str(event.content)) : [];
    case 'tool_use':
      return [toolActivity(str(event.tool_name) ?? 'tool', event.parameters)];
    case 'tool_result': {
      if (event.status !== 'error') return [];
      const message = isObject(event.error) ? (str(event.error.message) ?? '') : (str(event.output) ?? '');
      const denied = deniedToolName(message);
      return denied ? [toolActivity(denied, undefined, true)] : [{ kind: 'error', detail: message.split('\n')[0]! }];
    }
    case 'error':
      return [{ kind: 'error', detail: str(event.message) ?? 'error' }];
    case 'result': {
      const tokens = isObject(event.stats) ? num(event.stats.total_tokens) : undefined;
      const out: AgentActivity[] = [{ kind: 'usage', ...(tokens !== undefined ? { tokens } : {}) }];
      if (event.status !== 'success' && isObject(event.error))
        out.push({ kind: 'error', detail: errorText(event.error).split('\n')[0]! });
      return out;
    }
    default:
      return [];
  }
}

/**
 * Whether a line of gemini's stream is the model at work: messages (its answer streams as deltas), tool calls
 * and their results, the closing result. `init`, `error` events and everything on stderr (its retries) are not.
 */
export function geminiProgress(line: string, stream: 'stdout' | 'stderr'): Progress | null {
  const event = stream === 'stdout' ? jsonLine(line) : undefined;
  switch (event?.type) {
    case 'message':
    case 'result':
      return { toolsStarted: 0, toolsEnded: 0 };
    case 'tool_use':
      return { toolsStarted: 1, toolsEnded: 0 };
    case 'tool_result':
      return { toolsStarted: 0, toolsEnded: 1 };
    default:
      return null;
  }
}
