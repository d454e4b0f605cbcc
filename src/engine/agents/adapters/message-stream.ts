import type { AgentActivity, Progress } from '../agent.js';
import type { CliReading } from '../classify.js';
import { textActivity } from './activity-text.js';
import { isObject, num, parseJsonLines, str, type Json } from './parse-output.js';
import { readResult, readResultMessage, usageTokens } from './result-message.js';
import { deniedToolName, toolActivity } from './tool-action.js';

/**
 * The streamed messages of Claude Code (`--output-format stream-json --verbose`) and Qwen Code
 * (`-o stream-json`), one JSON object a line: `system` (init; claude's `api_retry`), `assistant` (text and
 * tool_use blocks), `user` (tool results), and a closing `result` like the one `json` prints.
 */

function contentBlocks(event: Json): Json[] {
  const message = isObject(event.message) ? event.message : undefined;
  return Array.isArray(message?.content) ? message.content.filter(isObject) : [];
}

/** The text of an assistant message. */
function assistantText(event: Json): string {
  return contentBlocks(event)
    .filter((b) => b.type === 'text')
    .map((b) => str(b.text) ?? '')
    .join('');
}

/** What an `api_retry` event says, as a one-line detail. */
function retryDetail(event: Json): string {
  // qwen 0.24's `retry` names no error: it follows an answer that broke off after a 200 (a refused or timed-out
  // request shows in the SDK's log instead), and says so on stderr: "Retrying provider attempt (... preserving delivered text)".
  if (event.subtype === 'retry' && event.error === undefined)
    return 'API connection lost mid-answer, the answer was retried';
  const status = num(event.error_status);
  const error = str(event.error) ?? 'error';
  const attempt = num(event.attempt);
  const max = num(event.max_retries);
  return `API ${error}${status !== undefined ? ` (HTTP ${status})` : ''}, retry ${attempt ?? '?'}${max !== undefined ? ` of ${max}` : ''}`;
}

/**
 * A failed attempt as the OpenAI SDK logs it with `OPENAI_LOG=info` (on stdout, in qwen): the only trace
 * of the retries qwen otherwise makes in silence. `[log_8978a6] post http://.../chat/completions failed with
 * status 429 in 153ms - error; no more retries left`, or `... connection failed - ...`; qwen 0.24 leaves out
 * the method and URL (`[log_bf8e17] connection failed - error; no more retries left`).
 */
const SDK_FAILURE = /^\[log_\w+[^\]]*\] (?:\w+ \S+ )?(failed with status (\d{3})|connection (?:failed|timed out))/;

/** Retry events: claude's `api_retry`, qwen 0.24's `retry` (a new round of its own loop). */
const RETRY_SUBTYPES = new Set(['api_retry', 'retry']);

/**
 * The wait of an `api_retry` event when it is the server's retry-after rather than claude's own backoff
 * (500 ms doubling to 32 s, plus up to 25 % jitter): only then does it say when the API takes calls again.
 */
function announcedDelay(event: Json): number | undefined {
  const delay = num(event.retry_delay_ms);
  const attempt = num(event.attempt) ?? 1;
  const backoffMax = Math.min(500 * 2 ** (attempt - 1), 32_000) * 1.25;
  return delay !== undefined && delay > backoffMax + 100 ? delay : undefined;
}

/**
 * The final message, or every message of the agent when only an earlier one holds a JSON object: a model
 * may give its plan, then close with a line such as "Done.".
 */
export function withEarlierPlan(finalText: string, texts: string[]): string {
  if (finalText.includes('{') || !texts.slice(0, -1).some((t) => t.includes('{'))) return finalText;
  return texts.join('\n\n');
}

/** Reads the whole stream: the `result` decides; without one (killed), what the stream showed so far. */
export function readMessageStream(stdout: string): CliReading {
  const events = parseJsonLines(stdout);
  if (!events.some((e) => typeof e.type === 'string' && 'session_id' in e)) return readResultMessage(stdout);
  const retries = events.filter((e) => e.type === 'system' && RETRY_SUBTYPES.has(str(e.subtype) ?? ''));
  const lastRetry = retries.at(-1);
  const retryAfterMs = lastRetry && num(lastRetry.error_status) === 429 ? announcedDelay(lastRetry) : undefined;
  const extra = retryAfterMs !== undefined ? { retryAfterMs: Math.round(retryAfterMs) } : {};
  const texts = events
    .filter((e) => e.type === 'assistant' && e.parent_tool_use_id == null)
    .map(assistantText)
    .filter(Boolean);
  const result = [...events].reverse().find((e) => e.type === 'result');
  if (result) {
    const reading = readResult(result);
    return { ...reading, finalText: withEarlierPlan(reading.finalText, texts), ...extra };
  }
  // No result: the CLI was killed (stalled, timed out, retried too often) while it worked or retried.
  const sdkFailure = stdout
    .split('\n')
    .filter((line) => SDK_FAILURE.test(line))
    .at(-1);
  const tokens = events
    .filter((e) => e.type === 'assistant')
    .reduce((n, e) => n + (usageTokens(isObject(e.message) ? e.message.usage : undefined) ?? 0), 0);
  return {
    structured: false,
    finalText: texts.at(-1) ?? '',
    // A retry event that names its error says most; qwen's bare `retry` round says less than the SDK's line.
    ...(lastRetry && (str(lastRetry.error) || !sdkFailure)
      ? { error: `${retryDetail(lastRetry)} when it stopped` }
      : sdkFailure
        ? { error: sdkFailure.replace(/^\[[^\]]*\]\s*/, '') }
        : {}),
    ...(tokens ? { tokens } : {}),
    ...extra,
  };
}

/** One streamed line as what the agent is doing. */
export function messageActivity(line: string, stream: 'stdout' | 'stderr'): AgentActivity[] {
  const sdk = stream === 'stdout' ? SDK_FAILURE.exec(line) : null;
  if (sdk) return [{ kind: 'retry', detail: sdk[2] ? `API call failed (HTTP ${sdk[2]})` : `API ${sdk[1]!}` }];
  if (stream !== 'stdout' || !line.startsWith('{')) return [];
  let event: unknown;
  try {
    event = JSON.parse(line);
  } catch {
    return [];
  }
  if (!isObject(event)) return [];
  if (event.type === 'system' && RETRY_SUBTYPES.has(str(event.subtype) ?? '')) {
    const waitMs = num(event.retry_delay_ms);
    return [
      { kind: 'retry', detail: retryDetail(event), ...(waitMs !== undefined ? { waitMs: Math.round(waitMs) } : {}) },
    ];
  }
  if (event.type === 'assistant') {
    return contentBlocks(event).flatMap((block): AgentActivity[] => {
      if (block.type === 'text') return textActivity(str(block.text));
      if (block.type === 'tool_use') return [toolActivity(str(block.name) ?? 'tool', block.input)];
      return [];
    });
  }
  if (event.type === 'user') {
    return contentBlocks(event).flatMap((block): AgentActivity[] => {
      if (block.type !== 'tool_result' || block.is_error !== true) return [];
      const text = typeof block.content === 'string' ? block.content : JSON.stringify(block.content ?? '');
      const denied = deniedToolName(text);
      return denied ? [toolActivity(denied, undefined, true)] : [];
    });
  }
  if (event.type === 'result') {
    const reading = readResult(event);
    const usage: AgentActivity = {
      kind: 'usage',
      ...(reading.tokens !== undefined ? { tokens: reading.tokens } : {}),
      ...(reading.costUsd !== undefined ? { costUsd: reading.costUsd } : {}),
    };
    return reading.error !== undefined ? [usage, { kind: 'error', detail: reading.error.split('\n')[0]! }] : [usage];
  }
  return [];
}

/** The model's own stream events (Anthropic's), not qwen's `goal_state` and other session news. */
const MODEL_STREAM = /^(message_(start|delta|stop)|content_block_(start|delta|stop))$/;

/**
 * Whether a streamed line is the model at work: a token (`stream_event`, with partial messages), a message, a
 * tool call (`tool_use` blocks start tools) or its result (`tool_result` blocks end them), the closing `result`.
 * `system` events (init, claude's `api_retry`, qwen's `retry`) and the SDK's log lines are the CLI's own.
 */
export function messageProgress(line: string, stream: 'stdout' | 'stderr'): Progress | null {
  if (stream !== 'stdout' || !line.startsWith('{')) return null;
  let event: unknown;
  try {
    event = JSON.parse(line);
  } catch {
    return null;
  }
  if (!isObject(event)) return null;
  const blocks = (type: string): number => contentBlocks(event as Json).filter((b) => b.type === type).length;
  if (event.type === 'assistant') return { toolsStarted: blocks('tool_use'), toolsEnded: 0 };
  if (event.type === 'user') return { toolsStarted: 0, toolsEnded: blocks('tool_result') };
  if (
    event.type === 'result' ||
    (event.type === 'stream_event' &&
      MODEL_STREAM.test(str(isObject(event.event) ? event.event.type : undefined) ?? ''))
  )
    return { toolsStarted: 0, toolsEnded: 0 };
  return null;
}
