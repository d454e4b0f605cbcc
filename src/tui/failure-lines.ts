import type { SessionView } from '../state/store.js';
import type { Criticality, Failure, RunError } from '../engine/types.js';
import { groupFailures } from './failure-groups.js';
import type { Suspect } from '../engine/localize/types.js';

/** One line of the failures view. */
export interface FailureLine {
  /** Set on a group's first line: drawn in the criticality's color. */
  criticality?: Criticality | 'error';
  /** `high   3×`, the label column of a group's first line. */
  label: string;
  text: string;
  /** Set on a group's first line: its index in `groupFailures`' order, for the cursor. */
  group?: number;
}

// One shared empty list: a selector must return the same value for the same state, or zustand re-renders forever.
const NONE: never[] = [];

/** The failures the view shows: those awaiting approval, else the latest run's. */
export function currentFailures(view: Pick<SessionView, 'awaitingApproval' | 'results'>): {
  failures: Failure[];
  errors: RunError[];
} {
  return {
    failures: view.awaitingApproval?.failures ?? view.results?.failures ?? NONE,
    errors: view.results?.errors ?? NONE,
  };
}

// 3: the names of a group after which "+N more" says enough on one line.
const NAMES_SHOWN = 3;

// The suspects listed under the groups: the prompt's five.
const SUSPECTS_SHOWN = 5;

/**
 * Run errors first (they block everything), then each group: its message, then its tests, stuck ones marked;
 * then the suspects fixcycle ranked for them, with the evidence of each.
 */
export function failureLines(
  failures: readonly Failure[],
  errors: readonly RunError[],
  stuck: readonly string[],
  suspects: readonly Suspect[] = NONE,
): FailureLine[] {
  const lines: FailureLine[] = [];
  for (const error of errors) {
    lines.push({ criticality: 'error', label: 'error', text: error.message.split('\n')[0] ?? '' });
    if (error.file) lines.push({ label: '', text: error.file });
  }
  const stuckSet = new Set(stuck);
  const groups = groupFailures(failures);
  // Counts right-aligned to the widest, so `10×` and `1×` end in one column.
  const digits = String(Math.max(0, ...groups.map((g) => g.failures.length))).length;
  groups.forEach((group, index) => {
    lines.push({
      criticality: group.criticality,
      label: `${group.criticality.padEnd(6)} ${String(group.failures.length).padStart(digits)}×`,
      text: group.message,
      group: index,
    });
    const names = group.failures.map((f) => `${f.name}${stuckSet.has(f.id) || stuckSet.has(f.name) ? ' (stuck)' : ''}`);
    const more = names.length > NAMES_SHOWN ? ` +${names.length - NAMES_SHOWN} more` : '';
    lines.push({ label: '', text: names.slice(0, NAMES_SHOWN).join(' · ') + more });
  });
  if (failures.length > 0) {
    suspects.slice(0, SUSPECTS_SHOWN).forEach((s, i) => {
      const kinds = Object.keys(s.scores).join('+');
      lines.push({
        label: i === 0 ? 'suspects' : '',
        text: `${i + 1}. ${s.file}:${s.function}:${s.startLine}-${s.endLine}  ${s.score.toFixed(2)} ${kinds}`,
      });
    });
  }
  return lines;
}

/** The label column's width: the widest label and a space, so a label never runs into its text. */
export function labelWidth(lines: readonly FailureLine[]): number {
  return Math.max(10, ...lines.map((l) => l.label.length + 1));
}

/** `7 in 3 groups`, `none`, counting the groups among `lines`. */
export function failureSummary(
  failures: readonly Failure[],
  errors: readonly RunError[],
  lines: readonly FailureLine[],
): string {
  if (failures.length === 0 && errors.length === 0) return 'none';
  const groups = lines.filter((l) => l.criticality && l.criticality !== 'error').length;
  const parts = [];
  if (failures.length > 0) parts.push(`${failures.length} in ${groups} group${groups === 1 ? '' : 's'}`);
  if (errors.length > 0) parts.push(`${errors.length} run error${errors.length === 1 ? '' : 's'}`);
  return parts.join(', ');
}

/** The index of each group's first line among `lines`, in group order. */
export function groupStarts(lines: readonly FailureLine[]): number[] {
  return lines.flatMap((line, i) => (line.group === undefined ? [] : [i]));
}
