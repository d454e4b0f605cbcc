import type { ReportSummary } from '../engine/report/index.js';
import type { RunError } from '../engine/types.js';

/** What `fixcycle report` shows: the format, the counts and what went wrong. */
export interface ReportView {
  format: string;
  /** Said beside the format when the counts are not from a report. */
  note?: string;
  summary: ReportSummary;
  errors: RunError[];
}

/** The readable form of a report: counts, the verdict with its reason, then each failure and error. */
export function formatReport(view: ReportView): string {
  const { summary } = view;
  const lines = [
    `format     ${view.format}${view.note ? `  (${view.note})` : ''}`,
    `passed     ${summary.passed}`,
    `failed     ${summary.failed}`,
    `skipped    ${summary.skipped}`,
    `errors     ${summary.errors}`,
    `truncated  ${summary.truncated ? 'yes' : 'no'}`,
    `ok         ${summary.ok ? 'yes' : `no — ${whyNotOk(summary)}`}`,
  ];
  if (summary.failures.length > 0) {
    lines.push('', 'Failures');
    for (const failure of summary.failures) {
      lines.push(
        `  ✗ ${failure.name}${failure.file ? `  (${failure.file})` : ''}`,
        `    ${firstLine(failure.message)}`,
      );
    }
  }
  if (view.errors.length > 0) {
    lines.push('', 'Errors outside tests');
    for (const error of view.errors) lines.push(`  ! ${error.file ?? '(no file)'}`, `    ${firstLine(error.message)}`);
  }
  return lines.join('\n');
}

/** Why a summary is not ok, in the words a person checks first. */
export function whyNotOk(summary: ReportSummary): string {
  const reasons: string[] = [];
  if (summary.failed > 0) reasons.push(`${summary.failed} failed`);
  if (summary.errors > 0) reasons.push(`${summary.errors} error${summary.errors === 1 ? '' : 's'} outside tests`);
  if (summary.truncated) reasons.push('the report is cut off');
  if (reasons.length === 0) reasons.push(summary.skipped > 0 ? 'every test was skipped' : 'no test ran');
  return reasons.join(', ');
}

function firstLine(text: string): string {
  const line =
    text
      .split('\n')
      .find((l) => l.trim() !== '')
      ?.trim() ?? '';
  return line.length > 160 ? `${line.slice(0, 159)}…` : line;
}
