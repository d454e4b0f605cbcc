import { writeFile } from 'node:fs/promises';
import type { Phase } from '../events.js';
import { buildTestResults } from '../decisions/test-results.js';
import { knownTests } from '../decisions/union-results.js';
import type { NoTestRanCause, RunTestsOptions } from '../runners/index.js';
import type { BaselineTest } from '../session/session-files.js';
import type { Criticality, Failure, TestResults, TestStatus } from '../types.js';
import type { WorkTreeStatus } from '../git.js';
import type { LoopContext } from './context.js';
import { recordTestArtifacts } from './test-artifacts.js';
import { recordGreenTests } from '../localize/green-commits.js';

export interface SuiteRun {
  scope: 'full' | 'affected';
  /** Shown above the output and written at the top of test-output.log. */
  label: string;
  iteration: number;
  phase: Phase;
  changedFiles?: string[];
  /** The last results: tests an affected run does not select keep their status from here. */
  previous: TestResults | null;
  planCriticality?: Record<string, Criticality>;
  flaky: ReadonlySet<string>;
  signal?: AbortSignal;
  /** The first run: parts a failure skips still run once, to learn whether they can run here. */
  probeParts?: boolean;
}

export interface SuiteOutcome {
  results: TestResults;
  /** What an affected run selected and why; null for a full run. */
  selection: { files: string[]; reason: string } | null;
  /** Set when no test ran for a cause outside the code: the loop stops rather than asking an agent. */
  noTestRan?: NoTestRanCause;
}

function previousStatuses(baseline: readonly BaselineTest[], previous: TestResults | null): Map<string, { status: TestStatus; failure?: Failure }> {
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
const COUNTS_FROM = { report: '', output: ', counted from the output', 'exit-code': ', judged by the exit code only' } as const;

/** Runs the suite (or the affected tests), saves test-results.json and test-output.log, and reports both. */
export async function runSuite(ctx: LoopContext, run: SuiteRun): Promise<SuiteOutcome> {
  const { session, emit } = ctx;
  const logFile = session.paths.testOutput;
  await writeFile(logFile, `# ${run.label} — ${new Date().toISOString()}\n`);
  emit({ type: 'output-reset', label: run.label });
  emit({ type: 'phase', phase: run.phase, status: 'running', iteration: run.iteration, detail: run.label });

  const saved = (await session.readBaseline()) ?? [];
  // One git status after every run serves two records: the untracked files the tests left, and where these
  // tests pass at a clean commit (the change evidence of a later failure starts there). It starts as soon as the
  // commands exited, beside the reading of their report.
  let tree: Promise<WorkTreeStatus> | undefined;
  const readTree = (): Promise<WorkTreeStatus> => {
    if (!tree) {
      tree = ctx.repo.workTreeStatus();
      tree.catch(() => undefined);
    }
    return tree;
  };
  const testRun = await ctx.runner.run({
    cwd: ctx.repo.root,
    scope: run.scope,
    ...(run.probeParts ? { probeParts: true } : {}),
    changedFiles: run.changedFiles,
    lastFailures: run.previous?.failures.map((f) => ({ id: f.id, file: f.file })),
    timeoutMs: ctx.options.testTimeoutMs,
    onLines: (lines) => emit({ type: 'output', lines }),
    logFile,
    signal: run.signal,
    onCommandsDone: () => void readTree(),
    onPart: (part) => emit({ type: 'log', level: part.result && part.result.exitCode === 0 ? 'info' : 'warn', message: describePart(run.label, part) }),
  });
  await ctx.sessionWritten;
  const status = readTree();
  const artifacts = recordTestArtifacts(ctx, run.changedFiles, status.then((t) => t.untracked));
  const passed = testRun.result.tests.filter((t) => t.status === 'passed').map((t) => t.id);
  const green = ctx.options.localize === false ? Promise.resolve() : recordGreenTests(ctx.repo.root, passed, { tree: status, gitDir: ctx.repo.gitDir }).catch(() => undefined);
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
    criticality: { rules: ctx.config.criticality ?? [], flaky: run.flaky, plan: run.planCriticality, heuristic: ctx.heuristic },
    ...(ctx.options.isOwnFailure ? { isOwnFailure: ctx.options.isOwnFailure } : {}),
  });
  // test-results.json is what a resumed session starts from: what this run recorded besides is saved before it.
  const newTests = known.added.length > 0 && scope === 'full';
  await Promise.all([artifacts, newTests ? session.saveBaseline(baseline) : undefined]);
  if (newTests) {
    if (saved.length > 0) emit({ type: 'log', level: 'info', message: `${known.added.length} test(s) reported for the first time now count towards the pass rate (${known.added.slice(0, 3).map((t) => t.id).join(', ')}${known.added.length > 3 ? ', ...' : ''})` });
  }
  await Promise.all([session.saveResults(results), green]);
  emit({ type: 'results', iteration: run.iteration, results });
  const failedRun = (results.errors.length > 0 && results.passed === 0) || testRun.noTestRan !== undefined;
  emit({
    type: 'phase',
    phase: run.phase,
    status: failedRun || testRun.timedOut ? 'failed' : 'done',
    iteration: run.iteration,
    detail: testRun.noTestRan ? (testRun.noTestRan.cause === 'cannot run here' ? 'stopped: a part of the test command cannot run here' : `no test ran (${testRun.noTestRan.cause})`) : `pass ${results.pass_rate}% (${results.passed}/${results.total}${testRun.countUnit ? ` ${testRun.countUnit}` : ''}${results.errors.length ? `, ${results.errors.length} error(s)` : ''})${testRun.timedOut ? ', timed out' : ''}${COUNTS_FROM[testRun.source]}`,
  });
  return { results, selection: scope === 'affected' ? testRun.selection : null, ...(testRun.noTestRan ? { noTestRan: testRun.noTestRan } : {}) };
}

/** A log line for a part of the test script other than the runner: the build, a linter, `&& tsc`. */
function describePart(label: string, part: Parameters<NonNullable<RunTestsOptions['onPart']>>[0]): string {
  const role = part.kind === 'after' ? 'after the tests' : part.kind === 'check' ? 'check before the tests' : 'setup before the tests';
  const result = part.result;
  const how = !result ? 'did not run' : result.spawnError ? `could not start (${result.spawnError})` : result.exitCode === 0 ? `passed (${(result.durationMs / 1000).toFixed(1)} s)` : `failed (exit ${result.exitCode ?? 'none'}, ${(result.durationMs / 1000).toFixed(1)} s)`;
  return `${label}: ${role}: \`${part.argv.join(' ')}\` ${how}`;
}
