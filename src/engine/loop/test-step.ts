import { buildTestResults } from '../decisions/test-results.js';
import { knownTests } from '../decisions/union-results.js';
import { assertWorktreeHere } from '../isolation/worktree-gone.js';
import type { NoTestRanCause } from '../runners/index.js';
import type { PartNotRun } from '../runners/runner.js';
import type { BaselineTest } from '../session/session-files.js';
import type { Failure, TestResults, TestStatus } from '../types.js';
import type { LoopContext } from './context.js';
import { recordTestArtifacts } from './test-artifacts.js';
import { recordGreenTests } from '../localize/green-commits.js';
import { startSuite, type StartedSuite, type SuiteRun } from './suite-start.js';

export type { SuiteRun } from './suite-start.js';

export interface SuiteOutcome {
  results: TestResults;
  /** What an affected run selected and why; null for a full run. */
  selection: { files: string[]; reason: string } | null;
  /** Set when no test ran for a cause outside the code: the loop stops rather than asking an agent. */
  noTestRan?: NoTestRanCause;
  /** Parts of the test command that cannot run here, left out of this run because the rest failed on the code. */
  partsNotRun?: PartNotRun[];
}

function previousStatuses(
  baseline: readonly BaselineTest[],
  previous: TestResults | null,
): Map<string, { status: TestStatus; failure?: Failure }> {
  const map = new Map<string, { status: TestStatus; failure?: Failure }>();
  if (!previous) return map;
  const failed = new Map(previous.failures.map((f) => [f.id, f]));
  for (const test of baseline) {
    const failure = failed.get(test.id);
    map.set(test.id, failure ? { status: 'failed', failure } : { status: test.skipped ? 'skipped' : 'passed' });
  }
  return map;
}

/** Said after the counts when they did not come from a report. */
const COUNTS_FROM = {
  report: '',
  output: ', counted from the output',
  'exit-code': ', judged by the exit code only',
} as const;

/**
 * Runs the suite (or the affected tests), saves test-results.json and test-output.log, and reports both.
 * `started`: the run when it was started already (a new session's first run starts before the loop exists).
 */
export async function runSuite(
  ctx: LoopContext,
  run: SuiteRun,
  started?: Promise<StartedSuite>,
): Promise<SuiteOutcome> {
  const { session, emit } = ctx;
  const suite = await (started ?? startSuite(ctx, run));
  const testRun = await suite.testRun;
  const saved = (await suite.saved) ?? [];
  await ctx.sessionWritten;
  // A run in a worktree removed meanwhile measured nothing of the code: none of it is recorded.
  assertWorktreeHere(ctx.repo.root, ctx.options.inPlace, ctx.session.id);
  // A run the user stopped proves nothing (its killed tests did not fail): nothing of it is recorded, and a
  // resumed session runs it again.
  const kept = !run.signal?.aborted;
  const status = suite.tree();
  const artifacts = kept
    ? recordTestArtifacts(
        ctx,
        run.changedFiles,
        status.then((t) => t.untracked),
      )
    : undefined;
  const passed = testRun.result.tests.filter((t) => t.status === 'passed').map((t) => t.id);
  const green =
    ctx.options.localize === false
      ? Promise.resolve()
      : recordGreenTests(ctx.repo.root, passed, { tree: status }).catch(() => undefined);
  // A runner that could not select affected tests ran the whole suite.
  const scope = run.scope === 'affected' && testRun.selection ? 'affected' : 'full';
  // The pass rate is over every test seen so far; a first run that ran nothing starts no baseline. Only tests the
  // user's full test command runs are kept for later runs: a file named on a subset's command line may be one the
  // full command never runs (node-tap's .mjs outside its test pattern), and would count as missing ever after.
  const known = testRun.noTestRan ? { tests: saved, added: [] } : knownTests(saved, testRun.result.tests);
  const baseline = known.tests;
  const results = buildTestResults({
    baseline,
    result: testRun.result,
    scope,
    previous: previousStatuses(baseline, run.previous),
    source: testRun.source,
    exitCode: testRun.exitCode,
    timedOut: testRun.timedOut,
    durationMs: testRun.durationMs,
    outputTail: testRun.outputTail,
    criticality: {
      rules: ctx.config.criticality ?? [],
      flaky: run.flaky,
      plan: run.planCriticality,
      heuristic: ctx.heuristic,
    },
    ...(ctx.options.isOwnFailure ? { isOwnFailure: ctx.options.isOwnFailure } : {}),
    ...(ctx.options.isOwnError ? { isOwnError: ctx.options.isOwnError } : {}),
  });
  // test-results.json is what a resumed session starts from: what this run recorded besides is saved before it.
  const newTests = kept && known.added.length > 0 && scope === 'full';
  await Promise.all([artifacts, newTests ? session.saveBaseline(baseline) : undefined]);
  if (newTests) {
    if (saved.length > 0)
      emit({
        type: 'log',
        level: 'info',
        message: `${known.added.length} test(s) reported for the first time now count towards the pass rate (${known.added
          .slice(0, 3)
          .map((t) => t.id)
          .join(', ')}${known.added.length > 3 ? ', ...' : ''})`,
      });
  }
  if (!kept) {
    await green;
    emit({
      type: 'phase',
      phase: run.phase,
      status: 'failed',
      iteration: run.iteration,
      detail: 'stopped: the run was killed, its results are not kept',
    });
    return { results, selection: null };
  }
  await Promise.all([session.saveResults(results), green]);
  emit({ type: 'results', iteration: run.iteration, results });
  const failedRun = (results.errors.length > 0 && results.passed === 0) || testRun.noTestRan !== undefined;
  emit({
    type: 'phase',
    phase: run.phase,
    status: failedRun || testRun.timedOut ? 'failed' : 'done',
    iteration: run.iteration,
    detail: testRun.noTestRan
      ? testRun.noTestRan.cause === 'cannot run here'
        ? 'stopped: a part of the test command cannot run here'
        : `no test ran (${testRun.noTestRan.cause})`
      : `pass ${results.pass_rate}% (${results.passed}/${results.total}${testRun.countUnit ? ` ${testRun.countUnit}` : ''}${results.errors.length ? `, ${results.errors.length} error(s)` : ''})${testRun.timedOut ? ', timed out' : ''}${COUNTS_FROM[testRun.source]}${testRun.partsNotRun?.length ? `; not run here: ${testRun.partsNotRun.map((p) => p.command.join(' ')).join(', ')}` : ''}`,
  });
  return {
    results,
    selection: scope === 'affected' ? testRun.selection : null,
    ...(testRun.noTestRan ? { noTestRan: testRun.noTestRan } : {}),
    ...(testRun.partsNotRun?.length ? { partsNotRun: testRun.partsNotRun } : {}),
  };
}
