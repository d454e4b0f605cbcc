import type { Failure } from '../types.js';

/** A drop of more than this many points of pass rate is a regression (the design's rule), whatever broke. */
export const REGRESSION_DROP = 10;

export interface RegressionInput {
  /** Pass rate before the fix. */
  before: number;
  /** Pass rate after the fix. */
  after: number;
  /**
   * Baseline tests that passed before the fix, failing after it and failing again on a re-run: the tests the fix
   * broke (see `brokenByFix`). A fix that breaks one is a regression, however small the drop.
   */
  broken?: readonly string[];
}

export interface RegressionCheck {
  regressed: boolean;
  /** Points lost (negative when the pass rate rose). */
  drop: number;
  /** The tests the fix broke; empty when it broke none. */
  broken: string[];
  reason: string;
}

/** How many broken tests a reason names before it says "and N more". */
const NAMED = 5;

/** The tests a reason names, the rest counted. */
export function nameTests(ids: readonly string[]): string {
  const shown = ids.slice(0, NAMED).join(', ');
  return ids.length > NAMED ? `${shown} and ${ids.length - NAMED} more` : shown;
}

/** Did the fix make things worse enough to roll it back? It did when it broke a passing test, or lost >10 points. */
export function detectRegression({ before, after, broken = [] }: RegressionInput): RegressionCheck {
  const drop = Math.round((before - after) * 100) / 100;
  const rates = `${before}% → ${after}%`;
  if (broken.length > 0) {
    return {
      regressed: true,
      drop,
      broken: [...broken],
      reason: `the fix broke ${broken.length} test(s) that passed before it (${nameTests(broken)}; pass rate ${rates})`,
    };
  }
  if (drop > REGRESSION_DROP) {
    return {
      regressed: true,
      drop,
      broken: [],
      reason: `pass rate dropped ${drop} points (${rates}), more than ${REGRESSION_DROP}`,
    };
  }
  return {
    regressed: false,
    drop,
    broken: [],
    reason: drop > 0 ? `pass rate dropped ${drop} points, within ${REGRESSION_DROP}` : `pass rate ${rates}`,
  };
}

export interface BrokenInput {
  /** Ids of the baseline tests that passed before the fix (neither failing nor skipped). */
  passedBefore: ReadonlySet<string>;
  /** What fails after the fix. */
  failuresAfter: readonly Failure[];
  /** Tests never held against a fix: known flaky ones, ones that fail alone but pass in the full suite. */
  excused: ReadonlySet<string>;
}

/**
 * The failures after a fix that are tests which passed before it: the candidates for "the fix broke them", to be
 * re-run once before they count (a flaky one passes). A test that fails only because this machine lacks something
 * is no fix's doing.
 */
export function brokenByFix({ passedBefore, failuresAfter, excused }: BrokenInput): Failure[] {
  return failuresAfter.filter((f) => passedBefore.has(f.id) && !excused.has(f.id) && !f.notHere);
}
