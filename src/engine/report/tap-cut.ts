import type { RunError } from '../types.js';
import { normalizeFile } from './test-id.js';

/** How the error of a TAP stream cut inside a test begins: read-result adds the run's output to it, once. */
export const CUT_INSIDE = 'the stream stops inside test';

// An uncaught error as node prints it: `TypeError: Cannot read ...`, `Error [ERR_X]: ...`.
const ERROR_LINE = /^(?:[A-Z]\w*(?:Error|Exception)|Error)(?: \[\w+\])?: \S/;
// A stack frame's place: `    at Test.<anonymous> (/abs/test/a.js:10:18)` or `    at /abs/test/a.js:10:18`.
const FRAME = /^\s+at (?:.*?\()?((?:file:\/\/)?\/[^():]+):(\d+):\d+\)?\s*$/;
const TAP_LINE = /^\s*(?:(?:not )?ok\b|#\s)/;

/**
 * A tape stream cut by a throw stops inside a test (its `# name` header is the last): that test never ended, and
 * tape counts nothing for it. It becomes an error naming the test, with the thrown error and its place when the
 * stream carries stderr after its last TAP line.
 */
export function cutInsideTest(text: string, test: string, rootDir?: string): RunError {
  const lines = text.split(/\r?\n/);
  let last = lines.length - 1;
  while (last >= 0 && !TAP_LINE.test(lines[last]!)) last--;
  const after = lines.slice(last + 1);
  const cause = after.map((l) => l.trim()).find((l) => ERROR_LINE.test(l));
  const frame = after
    .map((l) => FRAME.exec(l))
    .find((m) => m && !m[1]!.includes('/node_modules/') && !m[1]!.startsWith('node:'));
  const file = frame ? normalizeFile(frame[1], rootDir) : undefined;
  const where = frame ? ` at ${file}:${frame[2]}` : '';
  const message = cause
    ? `${CUT_INSIDE} "${test}": ${cause}${where}`
    : `${CUT_INSIDE} "${test}" (the process crashed or exited there; its error went to stderr)`;
  return { message, ...(file ? { file } : {}) };
}
