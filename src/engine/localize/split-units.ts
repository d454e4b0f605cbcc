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

/**
 * Two units out of two measured runs of the same test files: the failing tests alone (the runner's name
 * filter) and the files whole. A line the whole run executed more often than the failing tests did was run
 * by a passing test of those files, counted apart from the failing ones without a process per test.
 */
export function splitUnits(whole: Map<string, number>, failing: Map<string, number>): SpectrumUnit[] {
  const failed = [...failing].filter(([, n]) => n > 0).map(([key]) => key);
  const passed = [...whole].filter(([key, n]) => n > (failing.get(key) ?? 0)).map(([key]) => key);
  const units: SpectrumUnit[] = [{ name: 'the failing tests', failed: true, lines: failed }];
  if (passed.length > 0) units.push({ name: 'the passing tests of the same files', failed: false, lines: passed });
  return units;
}
