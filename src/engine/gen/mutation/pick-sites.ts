import type { Mutant, MutationSite } from './types.js';

/** At most this many mutants per module: enough to show a test checks the change, few enough to run in the gate. */
export const MAX_MUTANTS_PER_MODULE = 20;

/**
 * Picks at most `limit` sites spread over the changed lines: the lines with a site are taken at even steps through
 * the module (so a long change is not mutated only at its top), the first site of each chosen line first, then the
 * next. Deterministic: the same sites give the same mutants.
 */
export function pickSites(file: string, sites: readonly MutationSite[], limit = MAX_MUTANTS_PER_MODULE): Mutant[] {
  const byLine = new Map<number, MutationSite[]>();
  for (const s of sites) byLine.set(s.line, [...(byLine.get(s.line) ?? []), s]);
  const lines = [...byLine.keys()].sort((a, b) => a - b);
  const chosen =
    lines.length <= limit
      ? lines
      : Array.from({ length: limit }, (_, i) => lines[Math.floor((i * lines.length) / limit)]!);
  const picked: MutationSite[] = [];
  for (let round = 0; picked.length < limit; round++) {
    const before = picked.length;
    for (const line of chosen) {
      const site = byLine.get(line)![round];
      if (site && picked.length < limit) picked.push(site);
    }
    if (picked.length === before) break;
  }
  const seen = new Map<number, number>();
  return picked
    .sort((a, b) => a.line - b.line)
    .map((s) => {
      const n = (seen.get(s.line) ?? 0) + 1;
      seen.set(s.line, n);
      return { id: `${file}:${s.line}:${n}`, file, ...s };
    });
}
