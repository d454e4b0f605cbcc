import { FAILED_SUBTEST, type TestCase } from '../types.js';
import { asRecord } from './outcome.js';

/** A JUnit test case that ran subtests, as read: its id, name, file, `<skipped>` count and failure texts. */
export interface SubtestCase {
  id: string;
  name: string;
  file: string | undefined;
  skips: number;
  texts: { message: string; stack?: string }[];
}

/** The property of a JUnit test case in which fixcycle's pytest plugin counts its skipped subtests. */
export const SKIPPED_SUBTESTS_PROPERTY = 'fixcycle.skipped-subtests';

/** How many of a JUnit test case's `<skipped>` fixcycle's pytest plugin counted as skipped subtests (0 when none). */
export function markedSubtestSkips(testcase: Record<string, unknown>): number {
  const properties = asRecord(testcase.properties)?.property;
  // One `<property>` is read as an object, several as a list.
  for (const item of Array.isArray(properties) ? properties : [properties]) {
    const property = asRecord(item);
    if (property?.['@_name'] === SKIPPED_SUBTESTS_PROPERTY) return Number(property['@_value']) || 0;
  }
  return 0;
}

/**
 * A test case that holds several results ran subtests (unittest's `subTest`, pytest's `subtests` fixture): pytest
 * adds a `<skipped>` or `<failure>` per skipped or failed subtest to its test's case, while a test is skipped
 * once, whole, or not at all. A single `<skipped>` alone is a skipped test unless fixcycle's pytest plugin marked
 * it a subtest's (`marked`); without the plugin's mark the session's baseline tells (see `readSubtestSkips`).
 */
export function isSubtestCase(
  skips: number,
  texts: { message: string }[],
  file: string | undefined,
  marked = 0,
): boolean {
  if (marked > 0 || skips > 1 || (skips > 0 && texts.length > 0)) return true;
  // Several failures: pytest's subtests (other runners join a test's failures into one).
  return texts.some((t) => FAILED_SUBTESTS.test(t.message)) || (texts.length > 1 && file?.endsWith('.py') === true);
}

// pytest's own failure of a test whose subtests failed (`contains 2 failed subtests`): the test's, not a subtest's.
const FAILED_SUBTESTS = /^contains \d+ failed subtests?$/;

/**
 * Counted as pytest's closing line counts them (`1 failed, 3 passed, 1 skipped`): the test itself passes (or fails
 * with its `contains N failed subtests`), each failed subtest is a failed test of its own, `<test id> > failed
 * subtest N` in report order, and skipped subtests are not counted (pytest shows them only with -v).
 */
export function readSubtestCase(
  { id, name, file, skips, texts }: SubtestCase,
  durationMs: number | undefined,
): TestCase[] {
  const tests: TestCase[] = [];
  const own = texts.filter((t) => FAILED_SUBTESTS.test(t.message));
  const test: TestCase = { id, name, status: own.length > 0 ? 'failed' : 'passed', ...(file ? { file } : {}) };
  if (own.length > 0) test.message = own[0]!.message;
  if (durationMs !== undefined) test.durationMs = durationMs;
  // The suite's `skipped` counts each skipped subtest: this entry stands for them there.
  reports.set(test, { tests: 1, skipped: skips });
  tests.push(test);
  texts
    .filter((t) => !FAILED_SUBTESTS.test(t.message))
    .forEach((text, n) => {
      const label = `${FAILED_SUBTEST} ${n + 1}`;
      const failed: TestCase = { id: `${id} > ${label}`, name: `${name} > ${label}`, status: 'failed' };
      if (file) failed.file = file;
      failed.message = text.message;
      if (text.stack) failed.stack = text.stack;
      tests.push(failed);
    });
  return tests;
}

/** How many of the suite's counted results (`tests`, `skipped`) an entry stands for, where not its own one. */
const reports = new WeakMap<TestCase, { tests: number; skipped: number }>();

export function resultsCounted(tests: readonly TestCase[], only?: 'skipped'): number {
  let count = 0;
  for (const test of tests) {
    const stands = reports.get(test);
    if (only === undefined) count += stands?.tests ?? 1;
    else count += stands?.skipped ?? (test.status === 'skipped' ? 1 : 0);
  }
  return count;
}
