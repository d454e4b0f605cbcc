import type { Strategy } from '../types.js';

/** Aggressive needs a pass rate above this (the design's rule). */
export const AGGRESSIVE_PASS_RATE = 80;
/** ... and failures at least this alike (mean pairwise similarity of normalized messages). */
export const AGGRESSIVE_SIMILARITY = 0.7;
/** Iterations up to this one are conservative unless the last fix regressed. */
export const CONSERVATIVE_ITERATIONS = 2;

export interface StrategyInput {
  /** The iteration about to start, from 1. */
  iteration: number;
  /** The current pass rate, 0-100. */
  passRate: number;
  /** The last iteration's fix was rolled back for a regression. */
  lastRegressed: boolean;
  /** failureSimilarity() of the current failures. */
  similarity: number;
  /** Share of current failures that are stuck (0-1). */
  stuckShare: number;
  /** The strategy the last iteration used, if any. */
  previous?: Strategy;
}

export interface StrategyChoice {
  strategy: Strategy;
  reason: string;
}

/**
 * Picks the strategy for an iteration. Checked in this order, unlike the design's, whose order
 * makes surgical unreachable in iterations 1-2: regression, early iterations, similar failures.
 * When more than half the failures are stuck, the approach that kept failing is changed.
 */
export function chooseStrategy(input: StrategyInput): StrategyChoice {
  if (input.lastRegressed) {
    return {
      strategy: 'surgical',
      reason: 'the last fix regressed and was rolled back: minimal change, rollback first',
    };
  }
  const base = baseStrategy(input);
  if (input.stuckShare > 0.5 && input.previous && base.strategy === input.previous) {
    const changed: Strategy = input.previous === 'conservative' ? 'aggressive' : 'conservative';
    const share = Math.round(input.stuckShare * 100);
    return {
      strategy: changed,
      reason: `${share}% of the failures are stuck after ${input.previous} fixes: switching to ${changed}`,
    };
  }
  return base;
}

function baseStrategy(input: StrategyInput): StrategyChoice {
  if (input.iteration <= CONSERVATIVE_ITERATIONS) {
    return {
      strategy: 'conservative',
      reason: `iteration ${input.iteration} of the first ${CONSERVATIVE_ITERATIONS}: one targeted fix`,
    };
  }
  if (input.passRate > AGGRESSIVE_PASS_RATE && input.similarity > AGGRESSIVE_SIMILARITY) {
    return {
      strategy: 'aggressive',
      reason: `pass rate ${input.passRate}% > ${AGGRESSIVE_PASS_RATE}% and failures alike (similarity ${input.similarity} > ${AGGRESSIVE_SIMILARITY}): batch fix`,
    };
  }
  const why =
    input.passRate > AGGRESSIVE_PASS_RATE
      ? `failures differ (similarity ${input.similarity} ≤ ${AGGRESSIVE_SIMILARITY})`
      : `pass rate ${input.passRate}% ≤ ${AGGRESSIVE_PASS_RATE}%`;
  return { strategy: 'conservative', reason: `${why}: one targeted fix` };
}
