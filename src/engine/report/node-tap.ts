import type { Result } from 'tap-parser';
import type { RunError, TestCase } from '../types.js';
import { tapFailure } from './tap-failure.js';
import type { Level, SubtestFailures } from './tap-level.js';
import { makeTestId, normalizeFile } from './test-id.js';

// Failures quoted in one subtest's message: enough to see the pattern, few enough to read.
const QUOTED_FAILURES = 5;

/**
 * One test point of node-tap's stream. Depth 0 closes a test file; depth 1 is a test (a top-level subtest or
 * assertion of the file); deeper points are gathered as their top-level subtest's failure message.
 */
export function nodeTapPoint(
  point: Result,
  level: Level,
  out: { tests: TestCase[]; errors: RunError[] },
  rawYaml: string | undefined,
  rootDir?: string,
): void {
  const child = level.child;
  level.child = undefined;
  level.comments = [];
  const failed = !point.ok && !point.todo && !point.skip;
  const diag = (point.diag ?? null) as Record<string, unknown> | null;
  const depth = level.path.length;
  if (depth === 0) {
    // A file whose own tests failed fails too; one that crashed, was killed or lost its plan is an error as well.
    if (failed && (!child?.failedInside || diag?.signal || tapErrors(diag).length > 0))
      out.errors.push(fileFailure(point, diag, rootDir));
    return;
  }
  if (failed) level.failedInside = true;
  if (depth === 1) {
    const file = normalizeFile(level.path[0], rootDir) ?? level.path[0]!;
    // An error thrown outside any subtest (uncaught, or a rejected promise): tap names the point after the
    // error's text, which a fix removes, so it is an error of the file rather than a test.
    if (failed && child === undefined && diag && typeof diag.tapCaught === 'string') {
      out.errors.push({ message: tapFailure(point.name, diag, rawYaml, rootDir).message, file });
      return;
    }
    const name = point.name || `#${point.id}`;
    const test: TestCase = {
      id: makeTestId(file, [name]),
      name,
      file,
      status: point.todo || point.skip ? 'skipped' : point.ok ? 'passed' : 'failed',
    };
    if (typeof point.time === 'number') test.durationMs = point.time;
    if (test.status === 'failed') Object.assign(test, subtestMessage(point, child?.failures, diag, rawYaml, rootDir));
    out.tests.push(test);
    return;
  }
  // Inside a top-level subtest: only failures matter, and a subtest that closes over failures already seen adds none.
  if (!failed || (child !== undefined && child.failedInside) || !level.failures) return;
  const where = [...level.path.slice(2), point.name].filter(Boolean).join(' > ');
  const detail = tapFailure(point.name, diag, rawYaml, rootDir);
  const quoted = level.path.length > 2 ? `${level.path.slice(2).join(' > ')}: ${detail.message}` : detail.message;
  level.failures.push({ message: where ? quoted : detail.message, ...(detail.stack ? { stack: detail.stack } : {}) });
}

function subtestMessage(
  point: Result,
  failures: SubtestFailures | undefined,
  diag: Record<string, unknown> | null,
  rawYaml: string | undefined,
  rootDir?: string,
): { message: string; stack?: string } {
  if (!failures || failures.length === 0) {
    // Failed on its own: a plain assertion, a timeout, a plan that did not match.
    const own = tapFailure(point.name, diag, rawYaml, rootDir);
    return { message: own.message, ...(own.stack ? { stack: own.stack } : {}) };
  }
  const shown = failures.slice(0, QUOTED_FAILURES).map((f) => f.message);
  if (failures.length > QUOTED_FAILURES)
    shown.push(`(and ${failures.length - QUOTED_FAILURES} more failures in this subtest)`);
  const stack = failures.find((f) => f.stack)?.stack;
  return { message: shown.join('\n\n'), ...(stack ? { stack } : {}) };
}

/** A test file that failed outside its tests: it exited non-zero, was killed, or stopped before its plan. */
function fileFailure(point: Result, diag: Record<string, unknown> | null, rootDir?: string): RunError {
  const name = point.name.trim();
  const file = normalizeFile(typeof diag?.file === 'string' ? diag.file : name, rootDir) ?? name;
  const causes: string[] = [];
  if (diag?.signal) causes.push(`killed by ${String(diag.signal)}`);
  else if (typeof diag?.exitCode === 'number') causes.push(`exit code ${diag.exitCode}`);
  causes.push(...tapErrors(diag));
  const message =
    typeof diag?.message === 'string'
      ? diag.message
      : 'the test file failed outside its tests; its own output says why';
  return { message: `${message}${causes.length > 0 ? ` (${causes.join(', ')})` : ''}`, file };
}

/** What tap itself found wrong with a file's stream (`no plan`, `test count(27) != plan(null)`). */
function tapErrors(diag: Record<string, unknown> | null): string[] {
  const failures = Array.isArray(diag?.failures) ? (diag.failures as unknown[]) : [];
  return failures.flatMap((failure) => {
    const error = failure && typeof failure === 'object' ? (failure as Record<string, unknown>).tapError : undefined;
    return typeof error === 'string' ? [error] : [];
  });
}
