import type { RunError, TestCase, TestStatus } from '../types.js';
import type { ParseOutcome } from './parse-outcome.js';
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
import { makeTestId, normalizeFile, uniquifyIds } from './test-id.js';

// What pytest's own closing line counts each outcome as (xpassed among the passed, xfailed among the skipped).
const STATUS: Record<string, TestStatus> = {
  passed: 'passed',
  xpassed: 'passed',
  failed: 'failed',
  skipped: 'skipped',
  xfailed: 'skipped',
};
const STAGES = ['setup', 'call', 'teardown'] as const;

/**
 * Reads pytest-json-report's file (`pytest --json-report`): `tests[]` with each test's `nodeid`, overall `outcome`
 * and `setup`/`call`/`teardown` stages, and `collectors[]`, whose failed entries are modules that did not import.
 * Counted as pytest's closing line counts: a setup error is a failed test (as in pytest's JUnit), a teardown error
 * after a passing call is a passed test and an error beside it, and a collection error is an error outside tests.
 */
export function parsePytestJson(text: string, options: ParseOptions = {}): ParseOutcome {
  return guarded('pytest-json', () => {
    const json = readJson(text, 'pytest-json');
    if (!json.ok) return unusable(json.error);
    const report = asRecord(json.value);
    if (!report || !asRecord(report.summary)) {
      return unusable(
        'pytest-json report has no summary; write one with `pytest --json-report --json-report-file=FILE`',
      );
    }
    if (!Array.isArray(report.tests)) {
      return unusable(
        'pytest-json report lists no tests (written with --json-report-summary); rerun pytest without --json-report-summary',
      );
    }
    const root = asString(report.root);
    const fileOf = (nodeid: string) => normalizeFile(joinRoot(root, nodeid.split('::')[0]!), options.rootDir ?? root);
    const tests: TestCase[] = [];
    const errors: RunError[] = [];
    for (const entry of report.tests) {
      const item = asRecord(entry);
      const nodeid = asString(item?.nodeid);
      if (!item || !nodeid) continue;
      const read = readTest(item, nodeid, fileOf(nodeid));
      tests.push(read.test);
      if (read.error) errors.push(read.error);
    }
    for (const entry of asArray(report.collectors)) {
      const collector = asRecord(entry);
      if (asString(collector?.outcome) !== 'failed') continue;
      const nodeid = asString(collector?.nodeid) ?? '';
      const file = nodeid ? fileOf(nodeid) : undefined;
      errors.push({
        message: `collection failure: ${causeOf(asString(collector?.longrepr))}`,
        ...(file ? { file } : {}),
      });
    }
    return parsed({ format: 'pytest-json', tests: uniquifyIds(tests), errors, truncated: false });
  });
}

function readTest(
  item: Record<string, unknown>,
  nodeid: string,
  file: string | undefined,
): { test: TestCase; error?: RunError } {
  const [, ...parts] = nodeid.split('::');
  const name = parts.at(-1) ?? nodeid;
  const outcome = asString(item.outcome) ?? 'passed';
  const stages = Object.fromEntries(STAGES.map((s) => [s, asRecord(item[s])]));
  const test: TestCase = {
    id: makeTestId(file, parts.length > 0 ? parts : [nodeid]),
    name,
    status: STATUS[outcome] ?? 'failed',
    ...(file ? { file } : {}),
  };
  const seconds = STAGES.reduce((sum, s) => sum + (asNumber(stages[s]?.duration) ?? 0), 0);
  if (seconds > 0) test.durationMs = seconds * 1000;
  const failedStage = STAGES.find((s) => asString(stages[s]?.outcome) === 'failed');
  if (outcome === 'error' && failedStage === 'teardown' && asString(stages.call?.outcome) === 'passed') {
    // pytest counts this test as passed and its teardown as an error.
    test.status = 'passed';
    return {
      test,
      error: {
        message: `error in teardown of ${nodeid}: ${failureOf(stages.teardown).message}`,
        ...(file ? { file } : {}),
      },
    };
  }
  if (test.status === 'failed') {
    const failure = failureOf(failedStage ? stages[failedStage] : undefined);
    test.message = failedStage === 'setup' ? `error in setup: ${failure.message}` : failure.message;
    if (failure.stack) test.stack = failure.stack;
  }
  return { test };
}

/** A failed stage's message (its crash line, else the cause in its traceback) and its whole longrepr. */
function failureOf(stage: Record<string, unknown> | undefined): { message: string; stack?: string } {
  const longrepr = asString(stage?.longrepr);
  const crash = asString(asRecord(stage?.crash)?.message);
  const message = crash?.split('\n')[0]?.trim() || causeOf(longrepr);
  return longrepr ? { message, stack: longrepr } : { message };
}

/** pytest's cause is the last `E   ` line of a traceback ("E   ModuleNotFoundError: No module named 'x'"). */
function causeOf(longrepr: string | undefined): string {
  if (!longrepr) return 'failed';
  const lines = longrepr.split('\n');
  const cause = lines
    .filter((l) => /^E\s/.test(l))
    .pop()
    ?.replace(/^E\s+/, '');
  return cause ?? lines.find((l) => l.trim() !== '')?.trim() ?? 'failed';
}

function joinRoot(root: string | undefined, path: string): string {
  return root && !path.startsWith('/') ? `${root.replace(/\/$/, '')}/${path}` : path;
}
