import { messageSimilarity } from '../engine/decisions/similarity.js';
import type { Criticality, Failure } from '../engine/types.js';

/** Failures whose messages say the same thing, shown as one entry. */
export interface FailureGroup {
  /** The first line of the first failure's message, as the runner wrote it. */
  message: string;
  /** The highest criticality in the group. */
  criticality: Criticality;
  failures: Failure[];
}

/** 0.7: the similarity above which the engine treats failures as one pattern (issue 2's aggressive rule). */
export const GROUP_SIMILARITY = 0.7;

const RANK: Record<Criticality, number> = { high: 0, medium: 1, low: 2 };

function headline(failure: Failure): string {
  if (failure.missing) return 'no longer reported by the runner';
  const first = failure.message.split('\n').find((line) => line.trim() !== '');
  return first?.trim() ?? '(no message)';
}

/**
 * Groups failures by the similarity of their normalized messages, most critical and largest first.
 * Greedy against each group's first message: failures are few, and a stable order reads better than a clustering.
 */
export function groupFailures(failures: readonly Failure[]): FailureGroup[] {
  const groups: FailureGroup[] = [];
  const sorted = [...failures].sort((a, b) => RANK[a.criticality] - RANK[b.criticality]);
  for (const failure of sorted) {
    const message = headline(failure);
    const group = groups.find((g) => messageSimilarity(g.message, message) > GROUP_SIMILARITY);
    if (group) {
      group.failures.push(failure);
      if (RANK[failure.criticality] < RANK[group.criticality]) group.criticality = failure.criticality;
    } else {
      groups.push({ message, criticality: failure.criticality, failures: [failure] });
    }
  }
  return groups.sort((a, b) => RANK[a.criticality] - RANK[b.criticality] || b.failures.length - a.failures.length);
}
