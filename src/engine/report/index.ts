import type { ParseOutcome, ReportFormat } from './parse-outcome.js';
import { detectReportFormat } from './detect-format.js';
import { parseGoJson } from './go-json.js';
import { parseJestJson } from './jest-json.js';
import { parseJunit } from './junit.js';
import { parseLibtestJson } from './libtest-json.js';
import { parseMochaJson } from './mocha-json.js';
import { guarded, unusable, type ParseOptions } from './outcome.js';
import { parsePytestJson } from './pytest-json.js';
import { parseNodeTap, parseTap } from './tap.js';
import { parseUvuOutput } from './uvu-output.js';
import { parseVitestJson } from './vitest-json.js';

export type { ParseOutcome, ReportFormat } from './parse-outcome.js';
export type { ParseOptions } from './outcome.js';
export { detectReportFormat } from './detect-format.js';
export { summarizeResult, type ReportSummary } from './summarize.js';
export { parseSummaryLine, type SummaryCounts } from './summary-line.js';
export { findJsonReport } from './json-in-output.js';
export { printedFailures } from './printed-failures.js';

/** Every format name `parseReport` and `fixcycle report --format` accept. */
export const REPORT_FORMATS: readonly ReportFormat[] = [
  'junit',
  'tap',
  'node-tap',
  'vitest-json',
  'jest-json',
  'mocha-json',
  'go-json',
  'pytest-json',
  'uvu',
  'libtest-json',
];

const parsers: Record<ReportFormat, (text: string, options: ParseOptions) => ParseOutcome> = {
  junit: parseJunit,
  tap: parseTap,
  'node-tap': parseNodeTap,
  'vitest-json': parseVitestJson,
  'jest-json': parseJestJson,
  'mocha-json': parseMochaJson,
  'go-json': (text) => parseGoJson(text),
  'pytest-json': parsePytestJson,
  uvu: parseUvuOutput,
  'libtest-json': parseLibtestJson,
};

/**
 * Reads a test report into a normalized result. The format is detected from the content unless given.
 * Never throws: an unusable report comes back as `{ ok: false, error }` with one line saying why and what to do.
 */
export function parseReport(text: string, format?: ReportFormat, options: ParseOptions = {}): ParseOutcome {
  return guarded(format ?? 'test', () => {
    if (typeof text !== 'string') return unusable('report is not text; pass the file contents as a string');
    const chosen = format ?? detectReportFormat(text);
    if (chosen === null) {
      if (text.trim() === '')
        return unusable('report is empty; the runner wrote nothing (did it crash before reporting?)');
      return unusable(
        `not a test report fixcycle reads (${REPORT_FORMATS.join(', ')}); if it is one, name its format with --format`,
      );
    }
    const parse = parsers[chosen];
    if (!parse) return unusable(`unknown report format "${String(chosen)}"; use one of ${REPORT_FORMATS.join(', ')}`);
    return parse(text, options);
  });
}
