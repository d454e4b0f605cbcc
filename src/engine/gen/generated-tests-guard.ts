import type { FixChecker } from '../loop/context.js';
import type { FixPlan } from '../session/schema.js';

const NO_PLAN: FixPlan = {
  root_causes: ['(no plan)'],
  modification_points: ['(no plan)'],
  affected_tests: [],
  confidence_score: 1,
  approach: '(no plan)',
};

/** The plan as the guard should read it in IMPL-002: the generated test files count as named by `tests_are_wrong`. */
export function planAllowingGenerated(plan: FixPlan | null, generated: readonly string[]): FixPlan {
  const base = plan ?? NO_PLAN;
  return { ...base, tests_are_wrong: [...(base.tests_are_wrong ?? []), ...generated] };
}

/**
 * The fix guard for IMPL-002: the tests generated in this session may be edited (they are new and may be wrong),
 * still without skipping them or removing cases or assertions; every test that existed before stays protected.
 */
export function allowGeneratedTests(check: FixChecker, generated: readonly string[]): FixChecker {
  return (input) => check({ ...input, plan: planAllowingGenerated(input.plan, generated) });
}
