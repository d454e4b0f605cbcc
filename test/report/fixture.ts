import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseReport, type ReportSummary } from '../../src/engine/report/index.js';
import type { NormalizedResult } from '../../src/engine/types.js';

/** The folder of real and hand-written reports (see its README for how each was made). */
export const REPORTS_DIR = fileURLToPath(new URL('../fixtures/reports/', import.meta.url));

export function readReport(path: string): string {
  return readFileSync(`${REPORTS_DIR}${path}`, 'utf8');
}

/** A fixture read with its format detected, paths relative to `rootDir` when given; throws when unreadable. */
export function readParsed(path: string, rootDir?: string): NormalizedResult {
  const outcome = parseReport(readReport(path), undefined, rootDir ? { rootDir } : {});
  if (!outcome.ok) throw new Error(`${path}: ${outcome.error}`);
  return outcome.result;
}

/** The counts a summary is compared by. */
export const countsOf = ({ passed, failed, skipped, errors, truncated, ok }: ReportSummary) => ({
  passed,
  failed,
  skipped,
  errors,
  truncated,
  ok,
});

/** Every report fixture with the format it must be detected as. */
export const REPORT_FIXTURES = [
  ['vitest/mixed.json', 'vitest-json'],
  ['vitest/passing.json', 'vitest-json'],
  ['jest/mixed.json', 'jest-json'],
  ['jest/passing.json', 'jest-json'],
  ['mocha/mixed.json', 'mocha-json'],
  ['mocha/passing.json', 'mocha-json'],
  ['node-test/mixed.xml', 'junit'],
  ['node-test/passing.xml', 'junit'],
  ['node-test/mixed.tap', 'tap'],
  ['node-test/passing.tap', 'tap'],
  ['tape/mixed.tap', 'tap'],
  ['tape/passing.tap', 'tap'],
  ['tape/crash.tap', 'tap'],
  ['tape/throw-cut.tap', 'tap'],
  ['tape/throw-cut-combined.tap', 'tap'],
  ['tape/async-throw.tap', 'tap'],
  ['tape/todo.tap', 'tap'],
  ['tape/throw-async.tap', 'tap'],
  ['tape/throw-sync-combined.tap', 'tap'],
  ['node-test/subtest.tap', 'tap'],
  ['node-test/suite.tap', 'tap'],
  ['jest/junit-skipped.xml', 'junit'],
  ['pytest/subtests-broken.xml', 'junit'],
  ['pytest/subtests-fixed.xml', 'junit'],
  ['mocha/junit-reporter-mixed.xml', 'junit'],
  ['mocha/junit-reporter-pending.xml', 'junit'],
  ['jest/junit-suite-errors.xml', 'junit'],
  ['jest/junit-suite-errors-reported.xml', 'junit'],
  ['pytest/mixed.xml', 'junit'],
  ['pytest/collection-error.xml', 'junit'],
  ['pytest/json-report-mixed.json', 'pytest-json'],
  ['pytest/json-report-collection-error.json', 'pytest-json'],
  ['pytest/json-report-passing.json', 'pytest-json'],
  ['go/mixed.jsonl', 'go-json'],
  ['go/passing.jsonl', 'go-json'],
  ['cargo/junit-concatenated.xml', 'junit'],
  ['cargo/libtest-mixed.jsonl', 'libtest-json'],
  ['hand-written/nextest.xml', 'junit'],
  ['hand-written/go-build-output.jsonl', 'go-json'],
  ['node-tap/tap12-mixed.tap', 'node-tap'],
  ['node-tap/tap16-mixed.tap', 'node-tap'],
  ['node-tap/tap12-yallist-crash.tap', 'node-tap'],
  ['uvu/uvu0.5-mixed.out.txt', 'uvu'],
  ['uvu/uvu0.5-fixed.out.txt', 'uvu'],
  ['ava/ava6-mixed.tap', 'tap'],
  ['tape/tape5-evidence.tap', 'tap'],
  ['node-test/node20-evidence.tap', 'tap'],
] as const;
