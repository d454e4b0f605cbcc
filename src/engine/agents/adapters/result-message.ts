import type { CliReading } from '../classify.js';
import { isObject, num, parseJsonDocument, str, sum, type Json } from './parse-output.js';

/** The `result` message of Claude Code and Qwen Code: one object, or the last of an array of messages. */
function findResult(doc: unknown): Json | undefined {
  if (isObject(doc)) return doc.type === 'result' || 'is_error' in doc || 'result' in doc ? doc : undefined;
  if (Array.isArray(doc)) return [...doc].reverse().find((m): m is Json => isObject(m) && m.type === 'result');
  return undefined;
}

/**
 * Qwen Code reports a failed model call inside a success: exit 0, `is_error: false`, and a result text
 * of `[API Error: ...]`, possibly after the part of the answer that streamed before the failure.
 */
const API_ERROR_MARK = '[API Error: ';

/** The tokens of a `usage` object, cached ones included. */
export function usageTokens(usage: unknown): number | undefined {
  if (!isObject(usage)) return undefined;
  return sum(
    num(usage.input_tokens),
    num(usage.output_tokens),
    num(usage.cache_creation_input_tokens),
    num(usage.cache_read_input_tokens),
  );
}

/** What went wrong according to a `result` message, or undefined when it reports success. */
function resultError(result: Json, text: string): string | undefined {
  const subtype = str(result.subtype) ?? '';
  const marked = text.indexOf(API_ERROR_MARK);
  if (result.is_error !== true && !subtype.startsWith('error') && marked < 0) return undefined;
  const errorObject = isObject(result.error) ? result.error : undefined;
  const errors = Array.isArray(result.errors)
    ? result.errors.filter((e): e is string => typeof e === 'string').join('; ')
    : '';
  const said = str(errorObject?.message) ?? str(result.error) ?? (marked >= 0 ? text.slice(marked) : text);
  const status = num(result.api_error_status);
  const parts = [
    said || (subtype.startsWith('error') ? subtype : ''),
    errors,
    status !== undefined && !said.includes(String(status)) ? `(HTTP ${status})` : '',
  ];
  return parts.filter(Boolean).join(' ') || 'is_error: true';
}

/** Reads one `result` message: final text, tokens, cost, and the error it reports. */
export function readResult(result: Json): CliReading {
  const text = str(result.result) ?? '';
  const tokens = usageTokens(result.usage);
  const costUsd = num(result.total_cost_usd) ?? num(result.cost_usd);
  const error = resultError(result, text);
  return {
    structured: true,
    finalText: text,
    ...(error !== undefined ? { error } : {}),
    ...(tokens !== undefined ? { tokens } : {}),
    ...(costUsd !== undefined ? { costUsd } : {}),
  };
}

/**
 * Reads `--output-format json` of Claude Code (`claude -p`) and Qwen Code (`qwen -o json`):
 * `{type: "result", subtype, is_error, result, total_cost_usd, usage}`, alone or last in an array.
 * `is_error: true`, an `error_*` subtype or qwen's `[API Error: ...]` is a failure even when the process exited 0.
 */
export function readResultMessage(stdout: string): CliReading {
  const result = findResult(parseJsonDocument(stdout));
  return result ? readResult(result) : { structured: false, finalText: '' };
}
