import wrapAnsi from 'wrap-ansi';
import { evidenceUsed } from '../engine/localize/format.js';
import type { Suspect } from '../engine/localize/types.js';
import type { Failure } from '../engine/types.js';
import type { SessionView } from '../state/store.js';
import type { FailureGroup } from './failure-groups.js';
import { suspectsForGroup } from './group-suspects.js';
import type { DetailLine } from './iteration-detail-loader.js';
import { sanitizeLine } from './sanitize-line.js';

/** What the view of one failure group is drawn from. */
export interface FailureDetailInput {
  /** The group opened; null once the latest run no longer has it. */
  group: FailureGroup | null;
  /** Failures of the current run, all groups together. */
  allFailures: number;
  stuck: readonly string[];
  suspects: readonly Suspect[];
  localization: SessionView['localization'];
  /** The repository, to read the tests' stack frames as the ranking did. */
  root: string | null;
  width: number;
}

// 2,000 lines: a message or stack longer than this is a dump; the rest is in the iteration record.
const MAX_LINES = 2000;

/** `text` cut into lines of at most `width` columns (long paths broken), each indented. */
function wrapped(text: string, width: number, indent = 0): DetailLine[] {
  const room = Math.max(10, width - indent);
  return wrapAnsi(sanitizeLine(text, { color: false }), room, { hard: true, trim: true })
    .split('\n')
    .map((line) => ({ text: ' '.repeat(indent) + line }));
}

/** Every line of `text`, wrapped, blank lines kept (node's assert diff reads by them). */
function allLines(text: string, width: number, indent: number): DetailLine[] {
  const lines = text.replace(/\s+$/, '').split('\n');
  const out = lines
    .slice(0, MAX_LINES)
    .flatMap((line) => (line.trim() ? wrapped(line, width, indent) : [{ text: '' }]));
  if (lines.length > MAX_LINES) out.push({ text: `${' '.repeat(indent)}… ${lines.length - MAX_LINES} more lines` });
  return out;
}

/** A failure's whole message, then its stack when the runner gave one apart from the message. */
export function failureTextLines(
  failure: Pick<Failure, 'message' | 'stack' | 'missing'>,
  width: number,
  indent = 2,
): DetailLine[] {
  const message = failure.missing ? 'no longer reported by the runner' : failure.message.trim() || '(no message)';
  const lines = allLines(message, width, indent);
  const stack = failure.stack?.trim();
  if (stack && !message.includes(stack)) lines.push({ text: '' }, ...allLines(stack, width, indent));
  return lines;
}

function messageLines(group: FailureGroup, width: number): DetailLine[] {
  const first = group.failures[0]!;
  const out = failureTextLines(first, width);
  if (group.failures.length > 1)
    out.push(...wrapped(`(the message of every test below; the stack of "${first.name}")`, width, 2));
  return out;
}

function testLines(group: FailureGroup, stuck: readonly string[], width: number): DetailLine[] {
  const stuckSet = new Set(stuck);
  return group.failures.flatMap((f) =>
    wrapped(
      `${f.name}${stuckSet.has(f.id) || stuckSet.has(f.name) ? ' (stuck)' : ''}${f.file ? ` · ${f.file}` : ''}`,
      width,
      2,
    ),
  );
}

const KINDS = ['coverage', 'stack', 'change'] as const;

function suspectLines(rank: number, s: Suspect, width: number): DetailLine[] {
  const scores = KINDS.filter((k) => s.scores[k] !== undefined).map((k) => `${k} ${s.scores[k]}`);
  return [
    ...wrapped(`#${rank} ${s.file}:${s.function}:${s.startLine}-${s.endLine}`, width, 2),
    ...wrapped(`score ${s.score.toFixed(2)}${scores.length ? ` · ${scores.join(' · ')}` : ''}`, width, 5),
    ...s.evidence.flatMap((e) => wrapped(e, width, 5)),
  ];
}

function evidenceLines(loc: NonNullable<SessionView['localization']>, width: number): DetailLine[] {
  const took = `${(loc.durationMs / 1000).toFixed(1)} s${loc.cached ? ', coverage cached' : ''}`;
  return [
    { text: `Evidence · iteration ${loc.iteration} · ${took}`, heading: true },
    ...wrapped(`used: ${evidenceUsed(loc)}`, width, 2),
    ...loc.notes.flatMap((note) => wrapped(`not used: ${note}`, width, 2)),
  ];
}

/**
 * The lines of one failure group's view: its message, its tests, the suspects ranked for it with the score and
 * evidence of each, and which kinds of evidence the ranking used or lacked, wrapped to `width`.
 */
export function failureDetailLines(input: FailureDetailInput): DetailLine[] {
  const { group, width, localization } = input;
  if (!group)
    return wrapped(
      'This group is no longer among the current failures: the latest run fixed or regrouped it. esc closes.',
      width,
    );
  const lines: DetailLine[] = [
    {
      text: `${group.criticality} · ${group.failures.length} failing test${group.failures.length === 1 ? '' : 's'}`,
      heading: true,
    },
    ...messageLines(group, width),
    { text: '' },
    { text: 'Tests', heading: true },
    ...testLines(group, input.stuck, width),
    { text: '' },
    { text: 'Suspects', heading: true },
  ];
  if (!localization) {
    lines.push(
      ...wrapped(
        'None ranked for these failures yet: fixcycle ranks them before each analysis (not with --no-localize).',
        width,
        2,
      ),
    );
    return lines;
  }
  const { shown, basis } = suspectsForGroup(group.failures, input.allFailures, input.suspects, input.root);
  if (shown.length === 0)
    lines.push(...wrapped("The analysis ranked none: no evidence pointed at the project's code.", width, 2));
  else
    lines.push(
      ...wrapped(basis, width, 2),
      ...shown.flatMap(({ rank, suspect }) => suspectLines(rank, suspect, width)),
    );
  return [...lines, { text: '' }, ...evidenceLines(localization, width)];
}
