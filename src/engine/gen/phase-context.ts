import { selectAffectedTests } from '../affected/index.js';
import type { TestRun, TestRunner } from '../runners/runner.js';
import { writeJsonAtomic } from '../session/atomic.js';
import type { Change } from './changes.js';
import { errorKey } from './error-key.js';
import { readConventions } from './conventions.js';
import { changedCoverage, type CoverageData } from './coverage/model.js';
import { coverageSupport, withCoverage } from './coverage/measure.js';
import { node, type GenContext } from './gen-context.js';
import type { GenInput } from './input.js';
import { genPaths } from './paths.js';

/** The suite before gen: which tests already fail (the project's own failures, not gen's to fix). */
export interface SuiteBefore {
  passed: number;
  failed: number;
  /** Ids of the tests failing before generation. */
  failing: string[];
  /** Ids of the tests passing before generation. */
  passing: string[];
  /** Errors outside tests (a package that did not build): the tests behind them did not run. */
  errors: number;
  /** The suite did not end within --test-timeout and was killed (a test left a handle open, or it is slow). */
  timedOut?: true;
  /** What each of those errors is, as `errorKey` names it: the same error after gen is still the project's own. */
  error_keys?: string[];
}

function suiteBefore(run: TestRun): SuiteBefore {
  const tests = run.result.tests;
  const failing = tests.filter((t) => t.status === 'failed').map((t) => t.id);
  const passing = tests.filter((t) => t.status === 'passed').map((t) => t.id);
  const counts = {
    passed: passing.length,
    failed: failing.length,
    failing,
    passing,
    errors: run.result.errors.length,
    ...(run.result.errors.length > 0 ? { error_keys: run.result.errors.map(errorKey) } : {}),
  };
  return run.timedOut ? { ...counts, timedOut: true } : counts;
}

/** One line naming a suite that had to be killed: how long it was given, and what usually keeps one running. */
function hangNote(suite: SuiteBefore | null, timeoutMs: number): string {
  if (!suite?.timedOut) return '';
  const ran = suite.passed + suite.failed;
  const when = ran > 0 ? `its ${ran} test(s) ran, but it ` : 'it ';
  return `; the suite before generation did not end: ${when}was killed at the test timeout (${Math.round(timeoutMs / 1000)}s; a test left a timer, server or socket open, or the suite needs a longer --test-timeout)`;
}

/**
 * The full suite before gen, once: the coverage of the changed lines it had (for the package and the summary),
 * and the tests that already fail (IMPL-002 leaves them to the project).
 */
async function coverageBefore(
  ctx: GenContext,
  change: Change,
): Promise<{ measured: boolean; how?: string; reason?: string; data: CoverageData | null; suite: SuiteBefore | null }> {
  const runFull = (runner: TestRunner): Promise<TestRun> =>
    runner.run({
      cwd: ctx.repo.root,
      scope: 'full',
      timeoutMs: ctx.options.testTimeoutMs,
      signal: ctx.signal,
      onLines: (lines) => ctx.emit({ type: 'output', lines }),
    });
  const support = coverageSupport(ctx.runner, ctx.repo.root);
  if (!support.ok) {
    node(ctx, 'context', 'running', 'running the suite before generation (full suite)');
    return { measured: false, reason: support.reason, data: null, suite: suiteBefore(await runFull(ctx.runner)) };
  }
  node(ctx, 'context', 'running', 'measuring the coverage of the changed lines (full suite)');
  const { coverage, missing, result } = await withCoverage(
    ctx.runner,
    ctx.repo.root,
    change.files.map((f) => f.file),
    runFull,
  );
  const suite = suiteBefore(result);
  if (missing) return { measured: false, reason: missing, data: null, suite };
  return { measured: true, how: support.how, data: coverage, suite };
}

/**
 * Phase 2, by fixcycle itself: the changed files and hunks, the tests that already reach each changed file
 * (the import graph), the runner and the project's test conventions, and the coverage of the changed lines
 * today -> .process/test-context-package.json.
 */
export async function gatherContext(ctx: GenContext, input: GenInput): Promise<void> {
  const root = ctx.repo.root;
  const paths = genPaths(ctx.session.paths.dir);
  node(ctx, 'context', 'running', `${input.change.files.length} changed source file(s)`);
  const changed = [];
  for (const f of input.change.files) {
    const reach = await selectAffectedTests({
      cwd: root,
      runner: ctx.runner.name,
      changedFiles: [f.file],
      lastFailedFiles: [],
    });
    changed.push({
      file: f.file,
      lines: f.lines,
      hunks: f.hunks,
      tests_reaching: reach.files === 'all' ? 'all' : reach.files,
      reach_reason: reach.reason,
    });
  }
  const prefer = changed.flatMap((c) => (Array.isArray(c.tests_reaching) ? c.tests_reaching : []));
  const conventions = await readConventions(root, prefer);
  const before = await coverageBefore(ctx, input.change);
  if (before.data) await writeJsonAtomic(paths.coverageBefore, before.data);
  const described = ctx.runner.describe();
  const pkg = {
    session_id: ctx.session.id,
    gathered_at: new Date().toISOString(),
    input: {
      mode: input.mode,
      raw: input.raw,
      description: input.description,
      source_session_id: input.sourceSessionId,
    },
    change: { described_as: input.change.describedAs, base: input.change.base, head: input.change.head },
    changed_files: changed,
    runner: {
      name: ctx.runner.name,
      detected_from: ctx.runner.detectedFrom,
      command: described.full,
      subset: described.subset,
    },
    conventions,
    ...(before.suite ? { suite_before: before.suite } : {}),
    coverage: {
      measured: before.measured,
      ...(before.how ? { how: before.how } : {}),
      ...(before.reason ? { reason: before.reason } : {}),
      targets: { lines: ctx.options.coverageLines, branches: ctx.options.coverageBranches },
      files: before.data ? input.change.files.map((f) => changedCoverage(before.data!, f.file, f.lines)) : [],
    },
  };
  await writeJsonAtomic(paths.contextPackage, pkg);
  const cov = pkg.coverage.files.map((c) => `${c.file} ${c.lines ?? '-'}% lines`).join(', ');
  const own = [
    hangNote(before.suite, ctx.options.testTimeoutMs),
    before.suite?.failed ? `; ${before.suite.failed} test(s) fail before generation (the project's own)` : '',
    before.suite?.errors
      ? `; ${before.suite.errors} error(s) outside tests before generation (what could not run then is the project's own)`
      : '',
  ].join('');
  node(
    ctx,
    'context',
    'done',
    `${changed.length} file(s), ${conventions.test_file_count} existing test file(s), ${ctx.runner.name}${before.measured ? `; coverage before: ${cov}` : `; ${before.reason}`}${own}`,
  );
}

export type ContextPackage = {
  session_id: string;
  input: { mode: string; raw: string | null; description: string; source_session_id: string | null };
  change: { described_as: string };
  changed_files: {
    file: string;
    lines: number[];
    hunks: { start: number; count: number }[];
    tests_reaching: string[] | 'all';
    reach_reason: string;
  }[];
  runner: { name: string; command: string[] };
  conventions: import('./conventions.js').TestConventions;
  /** Absent in a session gathered before gen measured it. */
  suite_before?: SuiteBefore;
  coverage: {
    measured: boolean;
    how?: string;
    reason?: string;
    targets: { lines: number; branches: number };
    files: import('./coverage/model.js').ChangedCoverage[];
  };
};
