import type { AgentCall } from './agent.js';
import { errorKind, KIND_LABEL, withoutStackFrames, type ErrorKind } from './error-kind.js';
import { findResetTime } from './reset-time.js';

/** A finished agent process as the adapters see it. */
export interface RawRun {
  exitCode: number | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
}

/** What an adapter read from its CLI's output, before anything is judged. */
export interface CliReading {
  /** The CLI's output had the shape its output format promises (JSON object, JSONL events, aider's text). */
  structured: boolean;
  /** What the CLI itself reported as the error (`is_error` result, `error` object, `turn.failed` event). */
  error?: string;
  /** The agent's final message. */
  finalText: string;
  /** Every token the CLI reports for the call, cached ones included. */
  tokens?: number;
  costUsd?: number;
  /** How long the CLI said to wait before asking again, when it said so in a structured field (claude's retry events). */
  retryAfterMs?: number;
}

/** The part of an AgentCall an adapter decides. */
export type Interpretation = Pick<
  AgentCall,
  'classification' | 'detail' | 'finalText' | 'tokens' | 'costUsd' | 'retryAt'
>;

/** What a piece of error text says went wrong: a rate limit (quota, overload), missing authentication, or neither. */
export function classifyErrorText(text: string): 'rate_limited' | 'auth_error' | null {
  const kind = errorKind(text);
  if (kind === 'rate_limit' || kind === 'quota' || kind === 'overloaded') return 'rate_limited';
  if (kind === 'auth') return 'auth_error';
  return null;
}

/** Terminal escapes and control characters: a detail line is shown in the TUI and saved in JSON. */
function clean(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[[0-9;?]*[ -/]*[@-~]/g, '').replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '');
}

function firstLine(text: string | undefined): string {
  return (
    (text === undefined ? undefined : clean(text))
      ?.split('\n')
      .map((l) => l.trim())
      .find(Boolean)
      ?.slice(0, 300) ?? ''
  );
}

function lastLine(text: string): string {
  return clean(text).trim().split('\n').at(-1)?.trim().slice(0, 300) ?? '';
}

/**
 * Judges one run of an AI CLI. These CLIs often exit 0 when the model call failed, so the CLI's own
 * structured report decides first; the text (429, quota, invalid API key...) is read only once something
 * went wrong, because a successful fix may well mention "rate limit" in the code it wrote.
 */
export function interpretCliRun(cli: string, raw: RawRun, reading: CliReading, now = Date.now()): Interpretation {
  const usage = {
    ...(reading.tokens !== undefined ? { tokens: reading.tokens } : {}),
    ...(reading.costUsd !== undefined ? { costUsd: reading.costUsd } : {}),
  };
  if (raw.timedOut)
    return { classification: 'timeout', detail: 'timed out and was killed', finalText: reading.finalText, ...usage };
  const failed = reading.error !== undefined;
  if (!failed && raw.exitCode === 0 && reading.structured)
    return { classification: 'ok', finalText: reading.finalText, ...usage };

  const stderr = withoutStackFrames(raw.stderr);
  const evidence = [reading.error ?? '', stderr, reading.structured ? '' : raw.stdout].filter(Boolean).join('\n');
  const said = firstLine(reading.error) || lastLine(stderr) || lastLine(raw.stdout);
  // The CLI's own error report is read first: its stderr may mention other failures it recovered from.
  const kind: ErrorKind | null = (reading.error !== undefined ? errorKind(reading.error) : null) ?? errorKind(evidence);
  const base = { finalText: reading.finalText, ...usage };
  if (kind === 'rate_limit' || kind === 'quota' || kind === 'overloaded') {
    const retryAt =
      findResetTime(evidence, now) ?? (reading.retryAfterMs !== undefined ? now + reading.retryAfterMs : undefined);
    const precise = kind === 'rate_limit' ? '' : ` [${KIND_LABEL[kind]}]`;
    return {
      classification: 'rate_limited',
      detail: `rate-limited: ${said}${precise}`,
      ...base,
      ...(retryAt !== undefined ? { retryAt } : {}),
    };
  }
  if (kind === 'auth')
    return {
      classification: 'auth_error',
      detail: `not authenticated: ${said} (log in to ${cli}, then resume)`,
      ...base,
    };
  if (kind === 'timeout') return { classification: 'timeout', detail: `${KIND_LABEL.timeout}: ${said}`, ...base };
  if (kind === 'connection' || kind === 'server')
    return { classification: 'failed', detail: `${KIND_LABEL[kind]}: ${said}`, ...base };
  if (failed) return { classification: 'failed', detail: `${cli} reported an error: ${said}`, ...base };
  if (raw.exitCode !== 0)
    return {
      classification: 'failed',
      detail: `exited ${raw.exitCode ?? 'by a signal'}${said ? `: ${said}` : ''}`,
      ...base,
    };
  return {
    classification: 'failed',
    detail: `unreadable output from ${cli}${said ? `: ${said}` : ' (nothing printed)'}`,
    ...base,
  };
}
