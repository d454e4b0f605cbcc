import { parseReport, parseSummaryLine, type ParseOutcome, type ReportFormat, type SummaryCounts } from '../report/index.js';

/** Parses a runner's report with the report parsers, ids relative to the project root. */
export function parseRunnerReport(text: string, format: ReportFormat, cwd: string): ParseOutcome {
  return parseReport(text, format, { rootDir: cwd });
}

/** The counts of the runner's own summary line in an output, or null when it has none. */
export function readSummaryCounts(output: string): SummaryCounts | null {
  return parseSummaryLine(output);
}
