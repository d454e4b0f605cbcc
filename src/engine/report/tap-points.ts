import type { Result } from 'tap-parser';
import type { RunError, TestCase } from '../types.js';
import { normalizeFile } from './test-id.js';

/** One TAP test point as a test; the id is its subtest path only, since files appear only on failures. */
export function tapTestCase(point: Result, path: string[], rootDir?: string): TestCase {
  const status = point.todo || point.skip ? 'skipped' : point.ok ? 'passed' : 'failed';
  const test: TestCase = { id: path.join(' > '), name: path[path.length - 1] ?? '', status };
  const diag = (point.diag ?? {}) as Record<string, unknown>;
  const file = locationFile(diag.location, rootDir);
  if (file) test.file = file;
  const duration = typeof diag.duration_ms === 'number' ? diag.duration_ms : point.time;
  if (typeof duration === 'number') test.durationMs = duration;
  if (status === 'failed') {
    const detail = failureDetail(point, diag);
    test.message = detail.message;
    if (detail.stack) test.stack = detail.stack;
  }
  return test;
}

/** A failed top-level point named for a file: the file failed before any test ran. */
export function tapFileError(point: Result, comments: string[], rootDir?: string): RunError {
  const diag = (point.diag ?? {}) as Record<string, unknown>;
  // node:test reports only "test failed" here; the real error was printed as comments just before.
  const printed = comments.filter((c) => !c.startsWith('Subtest:'));
  const cause = printed.find((c) => /^\w*Error\b|^\w+Error \[|Error:/.test(c.trim()));
  const error = typeof diag.error === 'string' && diag.error !== 'test failed' ? diag.error : undefined;
  const message = error ?? cause?.trim() ?? 'the test file failed before any test ran';
  return { message, file: normalizeFile(point.name.trim(), rootDir) ?? point.name.trim() };
}

function failureDetail(point: Result, diag: Record<string, unknown>): { message: string; stack?: string } {
  const stack = typeof diag.stack === 'string' ? diag.stack : undefined;
  const error = typeof diag.error === 'string' ? diag.error : typeof diag.message === 'string' ? diag.message : undefined;
  if (error) {
    const name = typeof diag.name === 'string' && diag.name !== 'Error' ? `${diag.name}: ` : '';
    return { message: `${name}${error.trimEnd()}`, ...(stack ? { stack } : {}) };
  }
  // tape: the point's name is the assertion's message; the diagnostics say what differed.
  const expected = 'expected' in diag ? ` (expected ${show(diag.expected)}, got ${show(diag.actual)})` : '';
  return { message: `${point.name || 'failed'}${expected}`, ...(stack ? { stack } : {}) };
}

function locationFile(location: unknown, rootDir?: string): string | undefined {
  if (typeof location !== 'string') return undefined;
  return normalizeFile(location.replace(/:\d+(:\d+)?$/, ''), rootDir);
}

function show(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value) ?? String(value);
}
