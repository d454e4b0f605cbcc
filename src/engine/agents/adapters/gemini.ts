import type { CliReading } from '../classify.js';
import { defineCliAdapter, modelArgs } from './cli-adapter.js';
import { isObject, num, parseJsonDocument, str, sum } from './parse-output.js';

/**
 * `-p` forces headless mode and is appended to the prompt read from stdin, so it only points at it:
 * the prompt itself stays off the command line (no length limit, not visible in `ps`).
 */
export const FOLLOW_STDIN = 'Follow the instructions above.';

/** `gemini -o json`: `{session_id, response, stats, error?}`; an `error` object is a failure even on exit 0. */
export function readGeminiJson(stdout: string): CliReading {
  const doc = parseJsonDocument(stdout);
  if (!isObject(doc) || !('response' in doc || 'error' in doc)) return { structured: false, finalText: '' };
  const finalText = str(doc.response) ?? '';
  let tokens: number | undefined;
  const models = isObject(doc.stats) && isObject(doc.stats.models) ? doc.stats.models : {};
  for (const model of Object.values(models)) {
    if (isObject(model) && isObject(model.tokens)) tokens = sum(tokens, num(model.tokens.total));
  }
  const error = isObject(doc.error) ? [str(doc.error.message) ?? str(doc.error.type) ?? 'error', doc.error.code !== undefined ? `(code ${String(doc.error.code)})` : ''].join(' ').trim() : undefined;
  return { structured: true, finalText, ...(error !== undefined ? { error } : {}), ...(tokens !== undefined ? { tokens } : {}) };
}

/**
 * Gemini CLI: `gemini -o json -p ...`, the prompt on stdin. Analysis keeps the default approval mode
 * (headless, it leaves out every tool that would need approval: no edits, no shell); the fix runs `yolo`.
 */
export const geminiAdapter = defineCliAdapter({
  name: 'gemini',
  bin: 'gemini',
  checkedVersions: '0.61.x',
  args(role, model, extra) {
    return ['-o', 'json', '--approval-mode', role === 'analyze' ? 'default' : 'yolo', ...modelArgs('-m', model), ...extra, '-p', FOLLOW_STDIN];
  },
  read: (stdout) => readGeminiJson(stdout),
});
