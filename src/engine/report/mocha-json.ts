import type { RunError, TestCase, TestStatus } from '../types.js';
import type { ParseOutcome } from './parse-outcome.js';
import { withLocation } from './failure-location.js';
import { splitFailureText } from './failure-text.js';
import {
  asArray,
  asNumber,
  asRecord,
  asString,
  guarded,
  parsed,
  readJson,
  unusable,
  type ParseOptions,
} from './outcome.js';
import { makeTestId, normalizeFile, uniquifyIds } from './test-id.js';

/** Reads mocha's `json` reporter output (`stats`, `tests`, `pending`, `failures`, `passes`). */
export function parseMochaJson(text: string, options: ParseOptions = {}): ParseOutcome {
  return guarded('mocha-json', () => {
    const json = readJson(text, 'mocha-json');
    if (!json.ok) return unusable(json.error);
    const report = asRecord(json.value);
    if (!report || !asRecord(report.stats) || !Array.isArray(report.tests)) {
      return unusable(
        'mocha-json report has no stats and tests; write one with `mocha --reporter json --reporter-option output=FILE`',
      );
    }
    const pending = new Set(asArray(report.pending).map((t) => keyOf(asRecord(t))));
    const tests: TestCase[] = [];
    const seen = new Set<string>();
    for (const entry of report.tests) {
      const test = asRecord(entry);
      if (!test) continue;
      seen.add(keyOf(test));
      tests.push(readTest(test, pending.has(keyOf(test)) ? 'skipped' : undefined, options.rootDir));
    }
    // Hook failures ("before all" hook for ...) are in `failures` only: failures outside any test.
    const errors: RunError[] = [];
    for (const entry of asArray(report.failures)) {
      const failure = asRecord(entry);
      if (!failure || seen.has(keyOf(failure))) continue;
      const file = normalizeFile(asString(failure.file), options.rootDir);
      const err = splitFailureText(errorText(asRecord(failure.err)));
      const title = asString(failure.fullTitle) ?? '(unnamed hook)';
      errors.push({ message: `${title}: ${err?.message ?? 'failed'}`, ...(file ? { file } : {}) });
    }
    return parsed({ format: 'mocha-json', tests: uniquifyIds(tests), errors, truncated: false });
  });
}

function readTest(test: Record<string, unknown>, forced: TestStatus | undefined, rootDir?: string): TestCase {
  const title = asString(test.title) ?? '(unnamed test)';
  const fullTitle = asString(test.fullTitle) ?? title;
  // mocha gives the suite path only inside fullTitle ("suite inner title").
  const suitePath = fullTitle.endsWith(title) ? fullTitle.slice(0, fullTitle.length - title.length).trim() : '';
  const file = normalizeFile(asString(test.file), rootDir);
  const err = asRecord(test.err);
  const failed = err !== undefined && Object.keys(err).length > 0;
  const status: TestStatus = forced ?? (failed ? 'failed' : 'passed');
  const result: TestCase = { id: makeTestId(file, suitePath ? [suitePath, title] : [title]), name: title, status };
  if (file) result.file = file;
  const duration = asNumber(test.duration);
  if (duration !== undefined) result.durationMs = duration;
  const retries = asNumber(test.currentRetry);
  if (retries) result.retries = retries;
  if (status === 'failed') {
    const text = splitFailureText(errorText(err)) ?? { message: 'failed' };
    // mocha marks errors thrown outside the test's own call stack (timers, events): a crash, not an assertion.
    result.message = withLocation(
      err?.uncaught === true ? `Uncaught ${text.message}` : text.message,
      text.stack,
      rootDir,
    );
    if (text.stack) result.stack = text.stack;
  }
  return result;
}

function errorText(err: Record<string, unknown> | undefined): string | undefined {
  if (!err) return undefined;
  const stack = asString(err.stack);
  const message = asString(err.message);
  if (stack && message && stack.includes(message.split('\n')[0] ?? message)) return stack;
  return [message, stack].filter(Boolean).join('\n') || undefined;
}

function keyOf(test: Record<string, unknown> | undefined): string {
  return `${asString(test?.file) ?? ''}\u0000${asString(test?.fullTitle) ?? ''}`;
}
