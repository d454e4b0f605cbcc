import type { NormalizedResult } from '../types.js';

/** What a report says, in the few numbers a person and the loop decide on. */
export interface ReportSummary {
  passed: number;
  failed: number;
  skipped: number;
  /** Failures outside any test: files that did not import, packages that did not build, hooks, crashes. */
  errors: number;
  /** The report stopped early, so tests may be missing from it. */
  truncated: boolean;
  /**
   * True only when no test failed, nothing errored, the report is whole, and at least one test passed.
   * An empty report, or one where every test was skipped, is not ok: nothing was shown to work.
   */
  ok: boolean;
  /** The failed tests, in report order. */
  failures: { id: string; name: string; file?: string; message: string; stack?: string }[];
}

/** Counts a normalized result and says whether it shows a good run. */
export function summarizeResult(result: NormalizedResult): ReportSummary {
  let passed = 0;
  let skipped = 0;
  const failures: ReportSummary['failures'] = [];
  for (const test of result.tests) {
    if (test.status === 'passed') passed += 1;
    else if (test.status === 'skipped') skipped += 1;
    else {
      failures.push({
        id: test.id,
        name: test.name,
        ...(test.file ? { file: test.file } : {}),
        message: test.message ?? 'failed',
        ...(test.stack ? { stack: test.stack } : {}),
      });
    }
  }
  const errors = result.errors.length;
  const ok = failures.length === 0 && errors === 0 && !result.truncated && passed > 0;
  return { passed, failed: failures.length, skipped, errors, truncated: result.truncated, ok, failures };
}
