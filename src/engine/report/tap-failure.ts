import { atLine, locationInStack, userFrame, type Where } from './failure-location.js';

/** What a failed TAP test point says: the error, the runner's evidence (expected/actual, diff), and where. */
export interface TapFailure {
  message: string;
  stack?: string;
  /** The test file, relative to the project root, when the runner says where the failure is. */
  file?: string;
}

// The diagnostics that carry evidence, in the order a person reads them. tape and node:test: operator,
// expected, actual; node-tap 12: found, wanted, compare; node-tap 16+: diff, and the failing source line;
// ava: details (values before ava 4).
const EVIDENCE_KEYS = [
  'operator',
  'expected',
  'actual',
  'found',
  'wanted',
  'compare',
  'pattern',
  'diff',
  'details',
  'values',
  'code',
  'source',
];
// Error codes that say only "an assertion failed": noise next to the assertion's own evidence.
const PLAIN_CODES = new Set(['ERR_ASSERTION', 'ERR_TEST_FAILURE']);
// One field of evidence longer than this is cut: a huge object's dump would bury the message.
const MAX_FIELD = 2000;

/**
 * A failed point's message as the runner printed it: the error line, then the evidence fields, then
 * `at <file>:<line>:<column>`. `rawYaml` is the point's YAML block as printed, used when it could not be
 * parsed (node:test wrote duplicate keys for deepEqual diffs, which YAML rejects).
 */
export function tapFailure(
  name: string,
  diag: Record<string, unknown> | null,
  rawYaml: string | undefined,
  rootDir?: string,
): TapFailure {
  if (!diag || Object.keys(diag).length === 0) {
    const raw = rawYaml ? cleanRawYaml(rawYaml) : '';
    const where = raw ? locationOf({ at: /^\s*(?:at|location):\s*'?(.+?)'?\s*$/m.exec(raw)?.[1] }, rootDir) : undefined;
    return { message: [name || 'failed', raw].filter(Boolean).join('\n'), ...(where ? { file: where.file } : {}) };
  }
  const stack = typeof diag.stack === 'string' ? diag.stack.trimEnd() : undefined;
  const lines = [headline(name, diag)];
  // tape's t.error(err, 'message'): the error itself is only in the stack's first line.
  const thrown = diag.operator === 'error' && stack ? stack.split('\n')[0]!.trim() : undefined;
  if (thrown && thrown !== lines[0]) lines.push(`error: ${thrown}`);
  for (const key of EVIDENCE_KEYS) {
    if (!(key in diag) || diag[key] === undefined) continue;
    if (key === 'code' && PLAIN_CODES.has(String(diag[key]))) continue;
    if (key === 'actual' && 'expected' in diag && diag.expected === undefined) continue;
    if ((key === 'expected' || key === 'actual') && valuesInError(diag.error)) continue;
    lines.push(field(key, diag[key]));
  }
  // node:test's `location` is where the test starts; its stack says where it failed.
  const where =
    locationOf(diag, rootDir) ?? (stack ? locationInStack(stack, rootDir) : undefined) ?? testLocation(diag, rootDir);
  if (where) lines.push(atLine(where));
  return { message: lines.join('\n'), ...(stack ? { stack } : {}), ...(where ? { file: where.file } : {}) };
}

function headline(name: string, diag: Record<string, unknown>): string {
  const error =
    typeof diag.error === 'string'
      ? diag.error
      : typeof diag.message === 'string' && diag.message !== ''
        ? diag.message
        : undefined;
  // node-tap names a thrown error's class `type` (next to `type: Test` for an assertion's own frame).
  const className =
    typeof diag.name === 'string'
      ? diag.name
      : typeof diag.type === 'string' && /Error$/.test(diag.type)
        ? diag.type
        : undefined;
  const kind = className && className !== 'Error' ? `${className}: ` : '';
  // tape and node-tap name the point after the assertion's message; ava names it after the test.
  if (error === undefined)
    return `${kind}${name || (typeof diag.assertion === 'string' ? `${diag.assertion} failed` : 'failed')}`;
  return `${kind}${error.trimEnd()}`;
}

function field(key: string, value: unknown): string {
  let text: string;
  if (typeof value === 'string') text = value;
  else if (key === 'values' && Array.isArray(value))
    text = value
      .map((v) =>
        typeof v === 'object' && v
          ? `${String((v as Record<string, unknown>).label ?? '')}\n${String((v as Record<string, unknown>).formatted ?? '')}`
          : String(v),
      )
      .join('\n');
  else if (key === 'details' && value && typeof value === 'object')
    text = Object.entries(value)
      .map(([label, v]) => `${label}\n${typeof v === 'string' ? v : JSON.stringify(v, null, 2)}`)
      .join('\n');
  else text = JSON.stringify(value, null, 2) ?? String(value);
  text = text.trimEnd();
  if (text.length > MAX_FIELD) text = `${text.slice(0, MAX_FIELD)}… (cut)`;
  return text.includes('\n') ? `${key}:\n${indent(text)}` : `${key}: ${text}`;
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
}

/** node-tap's `at: {file, line, column}`, tape's `at: Test.<anonymous> (/abs/file.js:3:30)`, node:test's `location`, ava's `at`. */
function locationOf(diag: Record<string, unknown>, rootDir?: string): Where | undefined {
  const at = diag.at;
  if (at && typeof at === 'object') {
    const record = at as Record<string, unknown>;
    if (typeof record.file === 'string')
      return userFrame({ file: record.file, line: asNumber(record.line), column: asNumber(record.column) }, rootDir);
  }
  return typeof at === 'string' ? locationIn(at, rootDir) : undefined;
}

function testLocation(diag: Record<string, unknown>, rootDir?: string): Where | undefined {
  return typeof diag.location === 'string' ? locationIn(diag.location, rootDir) : undefined;
}

function locationIn(text: string, rootDir?: string): Where | undefined {
  const match = /\(?((?:file:\/\/)?[^\s()]+?):(\d+)(?::(\d+))?\)?\s*$/.exec(text.trim());
  if (!match) return undefined;
  return userFrame(
    { file: match[1]!, line: Number(match[2]), column: match[3] ? Number(match[3]) : undefined },
    rootDir,
  );
}

/** True when node's assert already printed the values (and their diff) in the error text. */
function valuesInError(error: unknown): boolean {
  return (
    typeof error === 'string' &&
    /\+ actual - expected|!==|!=|should (?:loosely )?(?:deep-)?equal|Expected values to be/.test(error)
  );
}

function asNumber(value: unknown): number | undefined {
  return typeof value === 'number' ? value : undefined;
}

/** A YAML block as printed, without the lines that are bookkeeping rather than evidence. */
function cleanRawYaml(raw: string): string {
  const lines = raw.replace(/\s+$/, '').split('\n');
  const margin = Math.min(...lines.filter((l) => l.trim() !== '').map((l) => /^ */.exec(l)![0].length));
  return lines
    .map((line) => line.slice(Number.isFinite(margin) ? margin : 0))
    .filter((line) => !/^(duration_ms|failureType|type):/.test(line))
    .join('\n');
}
