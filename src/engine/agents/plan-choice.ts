import type { FixPlan } from '../session/schema.js';
import type { PlanJudgement } from './triggers.js';

/** A valid plan one agent gave in this analysis, with its soft signals. */
export interface PlanCandidate {
  plan: FixPlan;
  agent: string;
  judgement: PlanJudgement;
  /** Which call of the analysis gave it (1 = the first), so ties go to the agent the user put first. */
  order: number;
}

/** The plan to use when none is free of warnings: highest confidence, then most concrete, then fewest warnings, then first asked. */
export function bestCandidate(candidates: readonly PlanCandidate[]): PlanCandidate {
  if (candidates.length === 0) throw new Error('bestCandidate needs at least one plan');
  return [...candidates].sort(
    (a, b) =>
      b.plan.confidence_score - a.plan.confidence_score ||
      b.judgement.concreteness - a.judgement.concreteness ||
      a.judgement.warnings.length - b.judgement.warnings.length ||
      a.order - b.order,
  )[0]!;
}
