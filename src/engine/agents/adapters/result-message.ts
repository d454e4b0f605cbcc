import type { CliReading } from '../classify.js';
import { isObject, num, parseJsonDocument, str, sum, type Json } from './parse-output.js';

/** The `result` message of Claude Code and Qwen Code: one object, or the last of an array of messages. */
function findResult(doc: unknown): Json | undefined {
  if (isObject(doc)) return doc.type === 'result' || 'is_error' in doc || 'result' in doc ? doc : undefined;
  if (Array.isArray(doc)) return [...doc].reverse().find((m): m is Json => isObject(m) && m.type === 'result');
  return undefined;
}

/**
 * Reads `--output-format json` of Claude Code (`claude -p`) and Qwen Code (`qwen -o json`):
 * `{type: "result", subtype, is_error, result, total_cost_usd, usage}`, alone or last in an array.
 * `is_error: true` (or an `error_*` subtype) is a failure even when the process exited 0.
 */
export function readResultMessage(stdout: string): CliReading {
  const result = findResult(parseJsonDocument(stdout));
  if (!result) return { structured: false, finalText: '' };
  const text = str(result.result) ?? '';
  const usage = isObject(result.usage) ? result.usage : {};
  const tokens = sum(num(usage.input_tokens), num(usage.output_tokens), num(usage.cache_creation_input_tokens), num(usage.cache_read_input_tokens));
  const costUsd = num(result.total_cost_usd) ?? num(result.cost_usd);
  const subtype = str(result.subtype) ?? '';
  const failed = result.is_error === true || subtype.startsWith('error');
  const errorObject = isObject(result.error) ? result.error : undefined;
  const error = failed ? (str(errorObject?.message) ?? str(result.error) ?? (text || subtype || 'is_error: true')) : undefined;
  return {
    structured: true,
    finalText: text,
    ...(error !== undefined ? { error } : {}),
    ...(tokens !== undefined ? { tokens } : {}),
    ...(costUsd !== undefined ? { costUsd } : {}),
  };
}
