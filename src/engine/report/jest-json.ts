import type { ParseOutcome } from './parse-outcome.js';
import { fileErrorText, readAssertionResults } from './assertion-results.js';
import { asNumber, asRecord, asString, guarded, parsed, readJson, unusable, type ParseOptions } from './outcome.js';
import { uniquifyIds } from './test-id.js';

/** Reads jest's `--json` report. */
export function parseJestJson(text: string, options: ParseOptions = {}): ParseOutcome {
  return guarded('jest-json', () => {
    const json = readJson(text, 'jest-json');
    if (!json.ok) return unusable(json.error);
    const report = asRecord(json.value);
    if (!report || !Array.isArray(report.testResults)) {
      return unusable('jest-json report has no testResults list; write one with `jest --json --outputFile=FILE`');
    }
    const { tests, errors } = readAssertionResults(report.testResults, jestDialect, options.rootDir);
    // Suites that failed to run but left no trace in testResults still count against the run.
    const missing = (asNumber(report.numRuntimeErrorTestSuites) ?? 0) - errors.length;
    if (missing > 0)
      errors.push({ message: `${missing} test suite(s) failed to run (jest numRuntimeErrorTestSuites)` });
    const truncated = report.wasInterrupted === true;
    return parsed({ format: 'jest-json', tests: uniquifyIds(tests), errors, truncated });
  });
}

const jestDialect = {
  retries(assertion: Record<string, unknown>): number | undefined {
    const invocations = asNumber(assertion.invocations);
    return invocations !== undefined && invocations > 1 ? invocations - 1 : undefined;
  },
  fileError(suite: Record<string, unknown>, tests: { status: string }[]): string | undefined {
    const execError = asRecord(suite.testExecError);
    if (execError)
      return fileErrorText(asString(execError.message) ?? asString(execError.stack), 'Test suite failed to run');
    if (suite.status !== 'failed' || tests.some((t) => t.status === 'failed')) return undefined;
    // `message` (or `failureMessage` in jest's TestResult) carries "● Test suite failed to run ...".
    const text = asString(suite.message) || asString(suite.failureMessage);
    return fileErrorText(text?.replace(/^\s*● Test suite failed to run\s*/, ''), 'Test suite failed to run');
  },
};
