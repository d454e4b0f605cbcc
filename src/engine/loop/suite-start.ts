import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { isAbsolute, join, relative } from 'node:path';
import type { Phase } from '../events.js';
import type { WorkTreeStatus } from '../git.js';
import type { RunTestsOptions, TestRun } from '../runners/runner.js';
import type { BaselineTest } from '../session/session-files.js';
import type { Criticality, TestResults } from '../types.js';
import type { LoopContext } from './context.js';

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

/** A suite run under way: its commands, the baseline read beside them, and the git status that follows them. */
export interface StartedSuite {
  testRun: Promise<TestRun>;
  saved: Promise<BaselineTest[] | null>;
  /** Resolves once a command of the run printed (its start-up is over), or the run ended. */
  printed: Promise<void>;
  /** Resolves once the run's commands exited (before their report is read), or the run ended. */
  exited: Promise<void>;
  /** One git status after the commands exited (started as soon as they did). */
  tree(): Promise<WorkTreeStatus>;
}

/** A new session's first run, started before the loop was built, with the controller that stops it. */
export interface BegunRun {
  suite: Promise<StartedSuite>;
  abort: AbortController;
}

/** The session's first run of the whole suite. */
export function initialSuiteRun(signal: AbortSignal): SuiteRun {
  return {
    scope: 'full',
    label: 'initial test run',
    iteration: 0,
    phase: 'test',
    previous: null,
    flaky: new Set(),
    signal,
    probeParts: true,
  };
}

/**
 * Starts a suite run: the log's header, the events that open it, the runner's commands. Kept apart from the
 * reading of its results (test-step.ts) and light on imports, so that a new session's first run starts before
 * the loop's modules have loaded.
 */
export async function startSuite(ctx: LoopContext, run: SuiteRun): Promise<StartedSuite> {
  const { session, emit } = ctx;
  const logFile = session.paths.testOutput;
  await writeFile(logFile, `# ${run.label} — ${new Date().toISOString()}\n`);
  emit({ type: 'output-reset', label: run.label });
  emit({ type: 'phase', phase: run.phase, status: 'running', iteration: run.iteration, detail: run.label });
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
  let onPrinted!: () => void;
  const printed = new Promise<void>((resolve) => (onPrinted = resolve));
  let onExited!: () => void;
  const exited = new Promise<void>((resolve) => (onExited = resolve));
  const saved = session.readBaseline();
  saved.catch(() => undefined);
  const suiteFiles = run.scope === 'affected' ? testFilesOf(ctx.repo.root, await saved.catch(() => null)) : undefined;
  const testRun = ctx.runner.run({
    cwd: ctx.repo.root,
    scope: run.scope,
    ...(suiteFiles ? { suiteFiles } : {}),
    ...(run.probeParts ? { probeParts: true } : {}),
    changedFiles: run.changedFiles,
    lastFailures: run.previous?.failures.map((f) => ({ id: f.id, file: f.file })),
    timeoutMs: ctx.options.testTimeoutMs,
    onLines: (lines) => emit({ type: 'output', lines }),
    logFile,
    signal: run.signal,
    onCommandsDone: () => {
      void readTree();
      onExited();
    },
    onCommandOutput: () => onPrinted(),
    onPart: (part) =>
      emit({
        type: 'log',
        level: part.result && part.result.exitCode === 0 ? 'info' : 'warn',
        message: describePart(run.label, part),
      }),
  });
  // Awaited by whoever reads the run; until then a failure must not count as unhandled.
  testRun.then(onPrinted, onPrinted);
  testRun.then(onExited, onExited);
  return { testRun, saved, printed, exited, tree: readTree };
}

/**
 * The files the full run reported tests from, when every baseline test names its file: what the user's command runs
 * as tests, relative to the root. Undefined when some test has no file or a file that is not there (the report
 * names them from a package's folder), so no selection is narrowed on a guess.
 */
function testFilesOf(root: string, baseline: readonly BaselineTest[] | null): string[] | undefined {
  if (!baseline?.length || baseline.some((test) => !test.file)) return undefined;
  const files = [
    ...new Set(baseline.map((test) => (isAbsolute(test.file!) ? relative(root, test.file!) : test.file!))),
  ];
  return files.every((file) => existsSync(join(root, file))) ? files : undefined;
}

/** A log line for a part of the test script other than the runner: the build, a linter, `&& tsc`. */
function describePart(label: string, part: Parameters<NonNullable<RunTestsOptions['onPart']>>[0]): string {
  const role =
    part.kind === 'after'
      ? 'after the tests'
      : part.kind === 'check'
        ? 'check before the tests'
        : 'setup before the tests';
  const result = part.result;
  const how = !result
    ? 'did not run'
    : result.spawnError
      ? `could not start (${result.spawnError})`
      : result.exitCode === 0
        ? `passed (${(result.durationMs / 1000).toFixed(1)} s)`
        : `failed (exit ${result.exitCode ?? 'none'}, ${(result.durationMs / 1000).toFixed(1)} s)`;
  return `${label}: ${role}: \`${part.argv.join(' ')}\` ${how}`;
}
