import type { SpectrumUnit } from './types.js';

/** A line's Ochiai score and the units behind it. */
export interface LineSpectrum {
  score: number;
  failed: number;
  passed: number;
}

/**
 * Ochiai's suspiciousness of every line a failing unit ran: ef / sqrt(F * (ef + ep)), where ef and ep count
 * the failing and passing units that ran the line and F all failing units. 1 for a line every failing unit
 * and no passing one ran.
 */
export function ochiai(units: readonly SpectrumUnit[]): {
  lines: Map<string, LineSpectrum>;
  failedUnits: number;
  passedUnits: number;
} {
  const counts = new Map<string, { failed: number; passed: number }>();
  let failedUnits = 0;
  for (const unit of units) {
    if (unit.failed) failedUnits++;
    for (const key of new Set(unit.lines)) {
      const c = counts.get(key) ?? { failed: 0, passed: 0 };
      if (unit.failed) c.failed++;
      else c.passed++;
      counts.set(key, c);
    }
  }
  const lines = new Map<string, LineSpectrum>();
  for (const [key, c] of counts) {
    if (c.failed === 0) continue;
    lines.set(key, { ...c, score: c.failed / Math.sqrt(failedUnits * (c.failed + c.passed)) });
  }
  return { lines, failedUnits, passedUnits: units.length - failedUnits };
}
