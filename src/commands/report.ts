import { readFile } from 'node:fs/promises';
import {
  parseReport,
  parseSummaryLine,
  REPORT_FORMATS,
  summarizeResult,
  type ReportFormat,
  type ReportSummary,
} from '../engine/report/index.js';
import type { RunError } from '../engine/types.js';
import { formatReport, type ReportView } from './report-format.js';

/** Where the command writes: stdout for the result, stderr for a one-line error. */
export interface ReportOutput {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

/** Exit codes of `fixcycle report`. */
export const REPORT_EXIT = { ok: 0, notOk: 1, unreadable: 2 } as const;

/**
 * `fixcycle report FILE [--format NAME] [--json]`: prints what fixcycle reads from a report file.
 * Exit 0 when the report shows a good run, 1 when tests failed, errored, were cut short or none ran,
 * 2 when the file is missing or is no report fixcycle can read.
 */
export async function runReportCommand(
  file: string,
  opts: { format?: string; json?: boolean },
  out: ReportOutput,
): Promise<number> {
  if (opts.format !== undefined && !(REPORT_FORMATS as readonly string[]).includes(opts.format)) {
    out.stderr(`fixcycle: unknown report format "${opts.format}"; use one of ${REPORT_FORMATS.join(', ')}`);
    return REPORT_EXIT.unreadable;
  }
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    out.stderr(`fixcycle: cannot read ${file}: ${readProblem(error)}`);
    return REPORT_EXIT.unreadable;
  }
  const view = readView(text, opts.format as ReportFormat | undefined);
  if ('error' in view) {
    out.stderr(`fixcycle: ${file}: ${view.error}`);
    return REPORT_EXIT.unreadable;
  }
  out.stdout(opts.json ? JSON.stringify(toJson(view)) : formatReport(view));
  return view.summary.ok ? REPORT_EXIT.ok : REPORT_EXIT.notOk;
}

function readView(text: string, format: ReportFormat | undefined): ReportView | { error: string } {
  const outcome = parseReport(text, format, { rootDir: process.cwd() });
  if (outcome.ok)
    return { format: outcome.result.format, summary: summarizeResult(outcome.result), errors: outcome.result.errors };
  // Not a report, but perhaps a run's plain output: fixcycle reads its summary line when there is no report.
  const counts = format === undefined ? parseSummaryLine(text) : null;
  if (!counts) return { error: outcome.error };
  const summary: ReportSummary = {
    ...counts,
    truncated: false,
    ok: counts.failed === 0 && counts.errors === 0 && counts.passed > 0,
    failures: [],
  };
  return {
    format: `summary-line:${counts.runner}`,
    note: `counts of ${counts.unit} from the runner's summary line; no per-test detail`,
    summary,
    errors: [],
  };
}

function toJson(view: ReportView) {
  const { summary } = view;
  return {
    format: view.format,
    passed: summary.passed,
    failed: summary.failed,
    skipped: summary.skipped,
    errors: summary.errors,
    truncated: summary.truncated,
    ok: summary.ok,
    failures: summary.failures.map(({ id, name, file, message }) => ({ id, name, file: file ?? null, message })),
    errorDetails: view.errors.map((e: RunError) => ({ file: e.file ?? null, message: e.message })),
  };
}

function readProblem(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return 'no such file; check the path';
  if (code === 'EISDIR') return 'it is a directory; pass the report file inside it';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied; check the file permissions';
  return `${(error as Error | undefined)?.message ?? String(error)}`.split('\n')[0]!;
}
