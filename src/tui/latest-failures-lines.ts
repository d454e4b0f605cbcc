import type { Failure, RunError } from '../engine/types.js';
import { failureTextLines } from './failure-detail-lines.js';
import { groupFailures } from './failure-groups.js';
import type { DetailLine } from './iteration-detail-loader.js';

/**
 * The view `v` opens, as Quarkus' continuous testing does: every failure of the latest run with its whole message and
 * stack, run errors first, then the tests most critical first (the failures view's order), ready to scroll.
 */
export function latestFailuresLines(
  failures: readonly Failure[],
  errors: readonly RunError[],
  stuck: readonly string[],
  width: number,
): DetailLine[] {
  if (failures.length === 0 && errors.length === 0)
    return [{ text: 'No failures in the latest run.' }, { text: 'esc closes.' }];
  const stuckSet = new Set(stuck);
  const lines: DetailLine[] = [];
  for (const error of errors) {
    lines.push({ text: `error${error.file ? ` · ${error.file}` : ''}`, heading: true });
    lines.push(...failureTextLines(error, width), { text: '' });
  }
  const ordered = groupFailures(failures).flatMap((g) => g.failures);
  ordered.forEach((f, i) => {
    const stuckMark = stuckSet.has(f.id) || stuckSet.has(f.name) ? ' (stuck)' : '';
    lines.push({ text: `${i + 1}/${ordered.length} ${f.criticality} · ${f.name}${stuckMark}`, heading: true });
    if (f.file) lines.push({ text: `  ${f.file}` });
    lines.push(...failureTextLines(f, width), { text: '' });
  });
  return lines;
}
