import type { RunError, TestCase, TestStatus } from '../types.js';
import { withLocation } from './failure-location.js';
import { splitFailureText } from './failure-text.js';
import { asArray, asNumber, asRecord, asString, firstLine } from './outcome.js';
import { makeTestId, normalizeFile } from './test-id.js';

/** How the two runners that share the `testResults[].assertionResults[]` shape differ. */
export interface AssertionDialect {
  /** Attempts beyond the first for a test. */
  retries(assertion: Record<string, unknown>): number | undefined;
  /** Why a whole test file failed outside its tests, or undefined when it did not. */
  fileError(suite: Record<string, unknown>, tests: TestCase[]): string | undefined;
  /** A failed test's messages as the report has them, put right where the runner's report loses what it printed. */
  failureMessages?(messages: string[], assertion: Record<string, unknown>): string[];
}

/** Reads jest's and vitest's per-file results (`testResults`) into tests and errors outside tests. */
export function readAssertionResults(
  suites: unknown[],
  dialect: AssertionDialect,
  rootDir?: string,
): { tests: TestCase[]; errors: RunError[] } {
  const tests: TestCase[] = [];
  const errors: RunError[] = [];
  for (const entry of suites) {
    const suite = asRecord(entry);
    if (!suite) continue;
    const file = normalizeFile(asString(suite.name), rootDir);
    const fileTests: TestCase[] = [];
    for (const item of asArray(suite.assertionResults)) {
      const assertion = asRecord(item);
      if (assertion) fileTests.push(readAssertion(assertion, file, dialect, rootDir));
    }
    tests.push(...fileTests);
    const error = dialect.fileError(suite, fileTests);
    if (error !== undefined) errors.push({ message: error, ...(file ? { file } : {}) });
  }
  return { tests, errors };
}

function readAssertion(
  assertion: Record<string, unknown>,
  file: string | undefined,
  dialect: AssertionDialect,
  rootDir?: string,
): TestCase {
  const title = asString(assertion.title) ?? asString(assertion.fullName) ?? '(unnamed test)';
  const ancestors = asArray(assertion.ancestorTitles).filter((t): t is string => typeof t === 'string');
  const status = statusOf(asString(assertion.status));
  const test: TestCase = { id: makeTestId(file, [...ancestors, title]), name: title, status };
  if (file) test.file = file;
  const duration = asNumber(assertion.duration);
  if (duration !== undefined) test.durationMs = duration;
  const retries = dialect.retries(assertion);
  if (retries) test.retries = retries;
  // A retried test that passed keeps its earlier attempts' errors: the status is what counts.
  if (status === 'failed') {
    const reported = asArray(assertion.failureMessages).filter((m): m is string => typeof m === 'string');
    const messages = dialect.failureMessages ? dialect.failureMessages(reported, assertion) : reported;
    const text = splitFailureText(messages.join('\n\n')) ?? {
      message: `failed with status "${String(assertion.status)}"`,
    };
    test.message = withLocation(text.message, text.stack, rootDir);
    if (text.stack) test.stack = text.stack;
  }
  return test;
}

function statusOf(status: string | undefined): TestStatus {
  if (status === 'passed') return 'passed';
  if (status === 'skipped' || status === 'pending' || status === 'todo' || status === 'disabled') return 'skipped';
  // Anything else, a status we do not know included, must not count as a pass.
  return 'failed';
}

/** A file-level error message cut to something a person can read in a list. */
export function fileErrorText(text: string | undefined, fallback: string): string {
  const message = text?.trim() ? text.trim() : fallback;
  return message.length > 4000 ? `${firstLine(message)} (and more)` : message;
}
