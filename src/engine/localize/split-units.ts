import type { CoverageData } from '../gen/coverage/model.js';
import type { SpectrumUnit } from './types.js';

/** Hits per `file:line` key, summed over several coverage reports (several processes of one run). */
export function lineHits(...reports: readonly CoverageData[]): Map<string, number> {
  const hits = new Map<string, number>();
  for (const report of reports)
    for (const [file, f] of Object.entries(report))
      for (const [line, n] of Object.entries(f.lines)) {
        const key = `${file}:${line}`;
        hits.set(key, (hits.get(key) ?? 0) + n);
      }
  return hits;
}

/** Failing tests told apart by hit counts at most: past this many, the estimate is as good and costs memory. */
const MAX_FAILING_UNITS = 50;

/**
 * Units out of two measured runs of the same test files: the failing tests alone (the runner's name filter)
 * and the files whole. A line the whole run executed more often than the failing tests did was run by a
 * passing test of those files, counted apart from the failing ones without a process per test. With several
 * failing tests, a line the failing run executed n times was run by at most n of them: failing unit i holds
 * the lines executed at least i times, so a line every failing test runs counts as run by all of them and a
 * line run once (one test's helper, or module code that ran when the file loaded) as run by one.
 */
export function splitUnits(whole: Map<string, number>, failing: Map<string, number>, failingTests = 1): SpectrumUnit[] {
  const count = Math.max(1, Math.min(MAX_FAILING_UNITS, failingTests));
  const units: SpectrumUnit[] = [];
  for (let i = 1; i <= count; i++)
    units.push({
      name: count === 1 ? 'the failing tests' : `the failing tests (lines run at least ${i} time(s))`,
      failed: true,
      lines: [...failing].filter(([, n]) => n >= i).map(([key]) => key),
    });
  const passed = [...whole].filter(([key, n]) => n > (failing.get(key) ?? 0)).map(([key]) => key);
  if (passed.length > 0) units.push({ name: 'the passing tests of the same files', failed: false, lines: passed });
  return units;
}
