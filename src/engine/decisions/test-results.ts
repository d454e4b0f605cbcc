import {
  FAILED_SUBTEST,
  type Failure,
  type NormalizedResult,
  type NotHere,
  type ResultSource,
  type RunError,
  type TestCase,
  type TestResults,
  type TestStatus,
} from '../types.js';
import { resolveCriticality, type CriticalitySources } from './criticality.js';
import { vanishedWithPassingGroup } from './vanished-tests.js';

export interface BuildResultsInput {
  /** The session's baseline: tests seen in the first full run. Empty for the first run itself. */
  baseline: readonly { id: string; name: string; file?: string; skipped?: boolean }[];
  result: NormalizedResult;
  scope: 'full' | 'affected';
  /** For an affected run: what each test's status was before (tests not run keep it). */
  previous?: ReadonlyMap<string, { status: TestStatus; failure?: Failure }>;
  source: ResultSource;
  exitCode: number | null;
  timedOut: boolean;
  durationMs: number;
  outputTail: string;
  criticality: CriticalitySources;
  /** Is this failure the project's own, there before the session started (gen's IMPL-002)? */
  isOwnFailure?: (id: string, name: string) => boolean;
  /** Is this error outside tests the project's own, there before the session started (a lint step failing)? */
  isOwnError?: (error: RunError) => boolean;
}

function round(rate: number): number {
  return Math.round(rate * 100) / 100;
}

/** A run with no usable tests and a failing exit is a failed run, never 0/0 = success. */
function runErrors(input: BuildResultsInput): RunError[] {
  const errors = [...input.result.errors];
  if (input.timedOut && !errors.some((e) => /timed out/.test(e.message)))
    errors.push({
      message: `the test command timed out after ${Math.round(input.durationMs / 1000)} s and was killed`,
    });
  else if (input.result.truncated)
    errors.push({ message: 'the test report stops early (the runner crashed or was cut off)' });
  const noTests = input.result.tests.length === 0;
  if (
    errors.length === 0 &&
    input.exitCode !== 0 &&
    input.exitCode !== null &&
    (noTests || input.source === 'exit-code')
  ) {
    const tail = input.outputTail.trim().split('\n').slice(-5).join('\n');
    errors.push({
      message: `the test command exited ${input.exitCode}${noTests ? ' without reporting any test' : ''}${tail ? `:\n${tail}` : ''}`,
    });
  }
  return errors;
}

function toFailure(
  test: { id: string; name: string; file?: string; package?: string; notHere?: NotHere },
  message: string,
  stack: string | undefined,
  input: BuildResultsInput,
  missing = false,
): Failure {
  const { level, source } = resolveCriticality({ ...test, message, stack }, input.criticality);
  const failure: Failure = { id: test.id, name: test.name, message, criticality: level, criticality_source: source };
  if (test.file) failure.file = test.file;
  if ('package' in test && test.package) failure.package = test.package;
  if (stack) failure.stack = stack;
  if (missing) failure.missing = true;
  if (test.notHere) failure.notHere = test.notHere;
  return failure;
}

/**
 * A JUnit case with one `<skipped>` is a skipped test, or a test that passed and skipped one subtest: pytest writes
 * both alike. fixcycle's pytest plugin marks the second in the report; where it could not load (pytest started
 * by a script whose Python fixcycle cannot find), a test that ran subtests in the baseline (`<id> > failed subtest
 * 1` there) and is now reported skipped is the second: it ran, passed, and pytest counts it passed.
 */
function readSubtestSkips(seen: Map<string, TestCase>, baselineIds: ReadonlySet<string>): void {
  for (const [id, test] of seen)
    if (test.status === 'skipped' && baselineIds.has(`${id} > ${FAILED_SUBTEST} 1`))
      seen.set(id, { ...test, status: 'passed' });
}

function isFailedSubtest(id: string): boolean {
  return id.includes(` > ${FAILED_SUBTEST} `);
}

function notRunYet(test: TestCase, previous: BuildResultsInput['previous']): boolean {
  return test.message?.startsWith('not run: ') === true && previous?.has(test.id) === true;
}

/**
 * Turns one run into test-results.json. The pass rate is over the baseline set (plus one per
 * error outside tests), so deleting or skipping a baseline test never raises it: a baseline test
 * that a full run no longer reports counts as failing.
 */
export function buildTestResults(input: BuildResultsInput): TestResults {
  const seen = new Map<string, TestCase>(input.result.tests.map((t) => [t.id, t]));
  const baseline = input.baseline.length > 0 ? input.baseline : input.result.tests;
  const allErrors = runErrors(input);
  const ownErrors = allErrors.filter((e) => input.isOwnError?.(e));
  const errors = allErrors.filter((e) => !ownErrors.includes(e));
  const failures: Failure[] = [];
  let passed = 0;
  let skipped = 0;
  let accountedFor = 0;
  const own: Failure[] = [];
  // A test that failed before the session and fails now is the project's own failure: set apart, not counted.
  const fail = (failure: Failure): void =>
    void (input.isOwnFailure?.(failure.id, failure.name) ? own.push(failure) : failures.push(failure));

  const baselineIds = new Set(baseline.map((t) => t.id));
  readSubtestSkips(seen, baselineIds);
  const groupPassed = vanishedWithPassingGroup([...seen.values()]);
  for (const test of baseline) {
    const reported = seen.get(test.id);
    // A test the stopped command never reached (listed "not run") keeps its status from the run before, if any.
    const now = reported && input.result.stopped && notRunYet(reported, input.previous) ? undefined : reported;
    if (now) {
      if (now.status === 'passed') passed++;
      else if (now.status === 'skipped') {
        // A baseline test that is now skipped counts as not passing; one skipped from the start is left out.
        if (input.baseline.length > 0 && !('skipped' in test && test.skipped))
          failures.push(toFailure(test, 'this test is now skipped; it ran in the baseline', undefined, input, true));
        else skipped++;
      } else fail(toFailure(now, now.message ?? 'failed', now.stack, input));
      continue;
    }
    const before = input.previous?.get(test.id);
    // A failed subtest exists only while it fails: an affected run that reports its test passing ran it and
    // found it fixed, as a full run would (its failure from before no longer stands).
    if (input.scope === 'affected' && isFailedSubtest(test.id) && groupPassed(test)) {
      accountedFor++;
      continue;
    }
    if ((input.scope === 'affected' || input.result.stopped) && before) {
      if (before.status === 'passed') passed++;
      else if (before.status === 'skipped') skipped++;
      else if (before.failure) fail(before.failure);
      else failures.push(toFailure(test, 'failed', undefined, input));
    } else if (input.scope === 'full' && input.baseline.length > 0 && groupPassed(test)) {
      accountedFor++;
    } else if (input.baseline.length > 0 && input.result.stopped) {
      // Not run because the command stopped at an earlier failure: not a lost test, and the agent is told why.
      failures.push(toFailure(test, `not run: ${input.result.stopped}`, undefined, input));
    } else if (input.baseline.length > 0) {
      failures.push(
        toFailure(
          test,
          'this baseline test was not reported by the run (deleted, renamed or not loaded)',
          undefined,
          input,
          true,
        ),
      );
    }
  }

  // Tests that are not in the baseline do not count towards the pass rate, but a failing one is still a failure.
  const known = baselineIds;
  for (const test of input.result.tests) {
    if (!known.has(test.id) && test.status === 'failed')
      fail(toFailure(test, test.message ?? 'failed', test.stack, input));
  }

  const counted = baseline.length - skipped - accountedFor - own.filter((f) => known.has(f.id)).length;
  const total = counted + errors.length;
  // Only the project's own failures left: nothing the session answers for fails.
  const passRate = total === 0 ? (own.length + ownErrors.length > 0 ? 100 : 0) : round((passed / total) * 100);
  return {
    total: baseline.length - accountedFor,
    passed,
    failed: failures.length,
    skipped,
    pass_rate: passRate,
    failures,
    errors,
    scope: input.scope,
    source: input.source,
    exit_code: input.exitCode,
    timed_out: input.timedOut,
    duration_ms: Math.round(input.durationMs),
    ran: input.scope === 'affected' ? input.result.tests.map((t) => t.id) : undefined,
    ...(own.length > 0 ? { own_failures: own } : {}),
    ...(ownErrors.length > 0 ? { own_errors: ownErrors } : {}),
    finished_at: new Date().toISOString(),
  };
}
