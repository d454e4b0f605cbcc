import { sourceFrames } from '../engine/localize/stack-frames.js';
import type { Suspect } from '../engine/localize/types.js';
import type { Failure } from '../engine/types.js';

/** The suspects a failure group's view lists, and how they were chosen. */
export interface GroupSuspects {
  /** Each with its rank among all the suspects of the analysis (1 = first). */
  shown: { rank: number; suspect: Suspect }[];
  /** One sentence: which suspects these are. */
  basis: string;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * Suspects are ranked once per analysis, for all its failures together: coverage and the change are not
 * measured per group. Stack frames are per test, so a group is shown the suspects its own tests' stacks pass
 * through; when none does (or the group is all the failures), it is shown every suspect, and the basis says which.
 */
export function suspectsForGroup(
  groupFailures: readonly Failure[],
  allFailures: number,
  suspects: readonly Suspect[],
  root: string | null,
): GroupSuspects {
  const ranked = suspects.map((suspect, i) => ({ rank: i + 1, suspect }));
  const all = `${plural(allFailures, 'failure')} of the analysis`;
  if (suspects.length === 0) return { shown: [], basis: '' };
  if (groupFailures.length >= allFailures)
    return { shown: ranked, basis: `Ranked for all ${all}: this group is all of them.` };
  const frames = sourceFrames(groupFailures, root ?? '');
  const inStack = ranked.filter(({ suspect: s }) =>
    frames.some((f) => f.file === s.file && f.line >= s.startLine && f.line <= s.endLine),
  );
  if (inStack.length > 0) {
    return {
      shown: inStack,
      basis: `${inStack.length} of ${suspects.length} ranked for all ${all}: those this group's stacks pass through (coverage and change are measured for all failures together).`,
    };
  }
  return {
    shown: ranked,
    basis: `No suspect is in this group's stacks: all ${suspects.length} ranked for all ${all}.`,
  };
}
