import type { Criticality, CriticalitySource } from '../types.js';

/** A `criticality` rule of fixcycle.config.json: a regex on the test id, name or file. */
export interface CriticalityRule {
  match: string;
  level: Criticality;
}

export interface CriticalityInput {
  id: string;
  name: string;
  file?: string;
  message?: string;
  stack?: string;
}

export interface CriticalitySources {
  rules: readonly CriticalityRule[];
  /** Ids that passed when re-run: flaky. */
  flaky?: ReadonlySet<string>;
  /** From heuristics on the message (timeouts low, crashes high...). */
  heuristic?: (test: CriticalityInput) => { level: Criticality; reason: string } | null;
  /** The last fix plan's `criticality` per test id. */
  plan?: Readonly<Record<string, Criticality>>;
}

/**
 * A failure's criticality and where it came from: config rules first, then flaky re-runs,
 * then heuristics, then the agent's plan, else medium.
 */
export function resolveCriticality(
  test: CriticalityInput,
  sources: CriticalitySources,
): { level: Criticality; source: CriticalitySource } {
  for (const rule of sources.rules) {
    const re = new RegExp(rule.match);
    if (re.test(test.id) || re.test(test.name) || (test.file !== undefined && re.test(test.file)))
      return { level: rule.level, source: 'config' };
  }
  if (sources.flaky?.has(test.id)) return { level: 'low', source: 'flaky' };
  const guess = sources.heuristic?.(test);
  if (guess) return { level: guess.level, source: 'heuristic' };
  const planned = sources.plan?.[test.id] ?? sources.plan?.[test.name];
  if (planned) return { level: planned, source: 'plan' };
  return { level: 'medium', source: 'default' };
}
