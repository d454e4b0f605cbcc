/** A drop of more than this many points of pass rate is a regression (the design's rule). */
export const REGRESSION_DROP = 10;

export interface RegressionCheck {
  regressed: boolean;
  /** Points lost (negative when the pass rate rose). */
  drop: number;
  reason: string;
}

/** Did the fix make things worse enough to roll it back? */
export function detectRegression(before: number, after: number): RegressionCheck {
  const drop = Math.round((before - after) * 100) / 100;
  if (drop > REGRESSION_DROP) {
    return {
      regressed: true,
      drop,
      reason: `pass rate dropped ${drop} points (${before}% → ${after}%), more than ${REGRESSION_DROP}`,
    };
  }
  return {
    regressed: false,
    drop,
    reason:
      drop > 0 ? `pass rate dropped ${drop} points, within ${REGRESSION_DROP}` : `pass rate ${before}% → ${after}%`,
  };
}
