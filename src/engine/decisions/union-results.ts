import type { TestCase } from '../types.js';

/** A test the session knows: seen in the first full run or in any run since. */
export interface KnownTest {
  id: string;
  name: string;
  file?: string;
  /** Skipped when first seen: it does not count towards the pass rate. */
  skipped?: boolean;
}

/**
 * The tests a pass rate is over: the baseline and every test seen since. A baseline test that a run no longer
 * reports stays (and counts as failing); a test a run reports for the first time is added (tests that only
 * run once a crash is fixed, a cargo target after the first failing one), so the counts never stop at the
 * first run's tests. Returns the same array when nothing is new.
 */
export function knownTests(
  known: readonly KnownTest[],
  seen: readonly TestCase[],
): { tests: KnownTest[]; added: KnownTest[] } {
  const ids = new Set(known.map((test) => test.id));
  const added: KnownTest[] = [];
  for (const test of seen) {
    if (ids.has(test.id)) continue;
    ids.add(test.id);
    added.push({
      id: test.id,
      name: test.name,
      ...(test.file ? { file: test.file } : {}),
      ...(test.status === 'skipped' ? { skipped: true } : {}),
    });
  }
  return { tests: added.length > 0 ? [...known, ...added] : [...known], added };
}
