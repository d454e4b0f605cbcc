import type { ParseOutcome, ReportFormat, SummaryCounts } from '../report/index.js';

type ReportModule = typeof import('../report/index.js');
let parsers: ReportModule | null = null;

/**
 * Loads the report parsers. A run starts this before its command and awaits it after, so loading them
 * (tap-parser, fast-xml-parser) overlaps the tests instead of adding to fixcycle's start-up.
 */
export async function loadReportParsers(): Promise<void> {
  parsers ??= await import('../report/index.js');
}

function loaded(): ReportModule {
  if (!parsers) throw new Error('report parsers used before loadReportParsers()');
  return parsers;
}

/** Parses a runner's report with the report parsers, ids relative to the project root. */
export function parseRunnerReport(text: string, format: ReportFormat, cwd: string): ParseOutcome {
  return loaded().parseReport(text, format, { rootDir: cwd });
}

/** The counts of the runner's own summary line in an output, or null when it has none. */
export function readSummaryCounts(output: string): SummaryCounts | null {
  return loaded().parseSummaryLine(output);
}

/** A JSON report of `format` the runner printed into its output, or null. */
export function jsonReportInOutput(output: string, format: ReportFormat): string | null {
  return loaded().findJsonReport(output, format);
}

/** What the runner printed about its failures, without JSON documents or coverage tables. */
export function failureSection(output: string): string {
  return loaded().printedFailures(output);
}
