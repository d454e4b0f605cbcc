import type { ParseOutcome } from './parse-outcome.js';
import { fileErrorText, readAssertionResults } from './assertion-results.js';
import {
  asArray,
  asNumber,
  asRecord,
  asString,
  guarded,
  parsed,
  readJson,
  unusable,
  type ParseOptions,
} from './outcome.js';
import { uniquifyIds } from './test-id.js';

/** Reads vitest's `--reporter=json` report. */
export function parseVitestJson(text: string, options: ParseOptions = {}): ParseOutcome {
  return guarded('vitest-json', () => {
    const json = readJson(text, 'vitest-json');
    if (!json.ok) return unusable(json.error);
    const report = asRecord(json.value);
    if (!report || !Array.isArray(report.testResults)) {
      return unusable(
        'vitest-json report has no testResults list; write one with `vitest run --reporter=json --outputFile=FILE`',
      );
    }
    const { tests, errors } = readAssertionResults(report.testResults, vitestDialect, options.rootDir);
    return parsed({ format: 'vitest-json', tests: uniquifyIds(tests), errors, truncated: false });
  });
}

const vitestDialect = {
  retries(assertion: Record<string, unknown>): number | undefined {
    // vitest keeps one failure message per failed attempt; a passed test with messages was retried.
    const attempts = asArray(assertion.failureMessages).length;
    return assertion.status === 'passed' && attempts > 0 ? attempts : undefined;
  },
  fileError(suite: Record<string, unknown>, tests: { status: string }[]): string | undefined {
    // A file that fails to import is `failed` with no tests (and not in numTotalTests).
    if (suite.status !== 'failed' || tests.some((t) => t.status === 'failed')) return undefined;
    return fileErrorText(asString(suite.message), 'the test file failed before any test ran');
  },
  failureMessages(messages: string[], assertion: Record<string, unknown>): string[] {
    // vitest 3 and 4 give a timeout error the stack of the placeholder error made when the test was declared, so
    // the report's message is `Error: STACK_TRACE_ERROR` where the screen said `Test timed out in 5000ms`.
    const duration = asNumber(assertion.duration);
    const said = `Error: Test timed out${duration !== undefined ? ` after ${Math.round(duration)}ms` : ''} (vitest's testTimeout or hookTimeout; its JSON report names the error only STACK_TRACE_ERROR)`;
    return messages.map((message) => message.replace(/^Error: STACK_TRACE_ERROR(?=\n|$)/, said));
  },
};
