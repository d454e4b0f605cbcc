import type { Criticality, Failure } from '../engine/types.js';

/** Failures with the same message and the same criticality, shown as one entry. */
export interface FailureGroup {
  /** The message on one line (its stack frames left out), as the runner wrote it. */
  message: string;
  criticality: Criticality;
  failures: Failure[];
}

const RANK: Record<Criticality, number> = { high: 0, medium: 1, low: 2 };

/**
 * The message on one line: its lines that are not stack frames, joined. node's assert puts what differs on the lines
 * after `Expected values to be strictly equal:`, so the first line alone would say the same for unrelated failures.
 */
export function oneLineMessage(failure: Failure): string {
  if (failure.missing) return 'no longer reported by the runner';
  const text = failure.message
    .split('\n')
    .filter((line) => !/^\s*at\s/.test(line))
    .map((line) => line.trim())
    .filter(Boolean)
    .join(' ');
  return text || '(no message)';
}

/**
 * Groups failures that say exactly the same thing with the same criticality, most critical and largest first.
 * Similar is not enough: `6 !== 5` and `'HELLO' !== 'Hello'` read alike to a similarity measure and are two bugs.
 */
export function groupFailures(failures: readonly Failure[]): FailureGroup[] {
  const groups = new Map<string, FailureGroup>();
  for (const failure of failures) {
    const message = oneLineMessage(failure);
    const key = `${failure.criticality}\n${message}`;
    const group = groups.get(key);
    if (group) group.failures.push(failure);
    else groups.set(key, { message, criticality: failure.criticality, failures: [failure] });
  }
  return [...groups.values()].sort(
    (a, b) => RANK[a.criticality] - RANK[b.criticality] || b.failures.length - a.failures.length,
  );
}
