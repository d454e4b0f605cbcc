import { existsSync, readFileSync } from 'node:fs';
import type { NormalizedResult } from '../types.js';
import type { ReportSpec } from './invocation.js';
import { skipName } from './cannot-run-here.js';
import { parseRunnerReport } from './report-access.js';
import type { PartRun } from './script-parts.js';

/** Streamed report formats a part after the tests may print as the runner does (a second tape run). */
const STREAMED = new Set(['tap', 'node-tap']);

/** Whether a part after the tests gets its stdout saved, to read the tests it runs. */
export function readsAfterPart(report: ReportSpec | null): report is ReportSpec {
  return report !== null && report.fromStdout && STREAMED.has(report.format);
}

/**
 * The tests of a part after the tests that runs the same runner again (object-inspect: `npm run tests-only &&
 * npm run test:corejs`, two tape runs whose counts tape's users add up), read from its saved stdout. Their ids
 * start with the part's name, so the same test run twice stays two tests. Null when its stdout is no such stream.
 */
export function afterPartTests(
  part: PartRun,
  stdoutFile: string,
  report: ReportSpec,
  cwd: string,
): NormalizedResult | null {
  if (!part.result || !existsSync(stdoutFile)) return null;
  const text = readFileSync(stdoutFile, 'utf8');
  if (!/^(?:TAP version \d+|(?:not )?ok \d)/m.test(text)) return null;
  const outcome = parseRunnerReport(text, report.format as 'tap', cwd);
  if (!outcome.ok || outcome.result.tests.length === 0) return null;
  const name = skipName(part.argv);
  return { ...outcome.result, tests: outcome.result.tests.map((test) => ({ ...test, id: `${name} > ${test.id}` })) };
}
