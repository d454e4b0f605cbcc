import type { Result } from 'tap-parser';
import type { RunError, TestCase } from '../types.js';
import { tapFailure } from './tap-failure.js';
import { normalizeFile } from './test-id.js';

/** One TAP test point as a test; the id is its subtest path only, since files appear only on failures. */
export function tapTestCase(point: Result, path: string[], rootDir?: string, rawYaml?: string): TestCase {
  const status = point.todo || point.skip ? 'skipped' : point.ok ? 'passed' : 'failed';
  const test: TestCase = { id: path.join(' > '), name: path[path.length - 1] ?? '', status };
  const diag = (point.diag ?? {}) as Record<string, unknown>;
  const file = locationFile(diag.location, rootDir);
  if (file) test.file = file;
  const duration = typeof diag.duration_ms === 'number' ? diag.duration_ms : point.time;
  if (typeof duration === 'number') test.durationMs = duration;
  if (status === 'failed') {
    const detail = tapFailure(point.name, point.diag ?? null, rawYaml, rootDir);
    test.message = detail.message;
    if (detail.stack) test.stack = detail.stack;
    if (!test.file && detail.file) test.file = detail.file;
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

function locationFile(location: unknown, rootDir?: string): string | undefined {
  if (typeof location !== 'string') return undefined;
  return normalizeFile(location.replace(/:\d+(:\d+)?$/, ''), rootDir);
}
