import type { NormalizedResult, ResultSource } from '../types.js';

/** How one run of the tests should go. */
export interface RunTestsOptions {
  /** The repository root; every command runs here. */
  cwd: string;
  /** `full` runs the whole suite; `affected` only what the changed files can break. */
  scope: 'full' | 'affected';
  /** Repository-relative files the last fix changed (for `affected`). */
  changedFiles?: string[];
  /** Tests that failed last time; an affected run always includes them. */
  lastFailures?: { id: string; file?: string }[];
  /** affected: the files the full run reported tests from; the selection runs only these, or their compiled form. */
  suiteFiles?: string[];
  /** Kill the run (and its whole process tree) after this long. */
  timeoutMs: number;
  /** Human-readable output, streamed as it comes, in batches of whole lines. */
  onLines?: (lines: string[]) => void;
  /** The full output is appended to this file (test-output.log). */
  logFile?: string;
  /**
   * Also runs the parts after the tests that a failure before them skips (`jest && npm run test-browser`), only
   * to learn whether they can run here: the first run does, so a part that cannot stops before any agent call.
   */
  probeParts?: boolean;
  /** Aborts the run (the process tree is killed). */
  signal?: AbortSignal;
  /**
   * Told once the run's last command exited, before its report is read: what the tests left in the work tree
   * is final from then on (the loop's git status starts there). A run that stops early may not tell.
   */
  onCommandsDone?: () => void;
  /**
   * Told once, when a command of the run first prints: its start-up (node, the runner, the first test file) is
   * over, and what fixcycle loads for later no longer competes with it for the CPU.
   */
  onCommandOutput?: () => void;
  /** Told about each part of the test script other than the runner (a build, a linter, `&& tsc`) once it ran. */
  onPart?: (part: {
    argv: string[];
    kind: 'setup' | 'check' | 'after';
    result: { exitCode: number | null; durationMs: number; spawnError?: string } | null;
  }) => void;
}

/** Why a run ran no test at all, for a cause no change to the code can fix: no agent is asked to. */
export interface NoTestRanCause {
  cause: 'missing tool' | 'cannot run here' | 'crashed runner' | 'no report';
  message: string;
  /** The tests ran and their results are real; what stops the session is a test that cannot run here. */
  testsRan?: boolean;
}

/** A part of the test command that cannot run on this machine, and why. */
export interface PartNotRun {
  /** How `skipParts` names it: the script or make target it runs (`test-headless`), else its command line. */
  name: string;
  command: string[];
  /** What it lacks here: `a browser`, `a program`, `a connection`, ... */
  needs: string;
  /**
   * A step inside the command (a task runner's `make test` running karma after mocha) rather than a part of the
   * script: fixcycle cannot leave it out, so it runs each time and its failure is not counted.
   */
  inside?: boolean;
  /** The whole stop message: the part, what it lacks, how to leave it out, its own words. */
  message: string;
}

/** What one run of the tests produced. */
export interface TestRun {
  /** The tests this run saw; for an `affected` run, only those it ran. */
  result: NormalizedResult;
  /** Where the counts came from: a report file, the output, or only the exit code. */
  source: ResultSource;
  exitCode: number | null;
  timedOut: boolean;
  durationMs: number;
  /** The command that ran, as an argument list. */
  command: string[];
  /** Which tests an `affected` run selected and why (null for a full run, or when it fell back to the full suite). */
  selection: { files: string[]; reason: string } | null;
  /** The last lines of the output, for a run that produced no usable report. */
  outputTail: string;
  /** Why an `affected` run ran the full suite instead (then `selection` is null). */
  fallbackReason?: string;
  /** The parts of the test script other than the runner that ran, in order (builds, linters, `&& tsc`). */
  parts?: {
    command: string[];
    kind: 'setup' | 'check' | 'after';
    exitCode: number | null;
    durationMs: number;
    failed: boolean;
  }[];
  /** Set when no test ran for a reason outside the code (a missing tool, a crashed runner, no report). */
  noTestRan?: NoTestRanCause;
  /**
   * Parts of the test command that cannot run on this machine, left out of this run's result because the parts
   * that ran failed for the code's own reasons: those failures are the agent's work, the part is reported.
   */
  partsNotRun?: PartNotRun[];
  /** What one count is where it is not a test: tape reports assertions, and the counts shown say so. */
  countUnit?: 'assertions';
}

/** A test runner resolved for one repository: what it is and how to run it. */
export interface TestRunner {
  /** `node-test`, `vitest`, `jest`, `mocha`, `tape`, `pytest`, `go`, `cargo`, or `command` for a plain --test-cmd. */
  name: string;
  /** Why this runner was chosen (`--runner`, `--test-cmd`, "vitest in devDependencies", ...). */
  detectedFrom: string;
  /** The exact commands it will run, for `fixcycle doctor` and the status line. */
  describe(): {
    full: string[];
    subset: string[] | null;
    related: string[] | null;
    reportSource: ResultSource;
    env?: Record<string, string>;
  };
  run(options: RunTestsOptions): Promise<TestRun>;
  /**
   * Runs only the given test files, narrowed to the given test names where the runner can (flaky re-runs).
   * Resolves to null when the runner cannot run a subset. Optional: runners without it are never re-run.
   */
  runSubset?(
    options: Omit<RunTestsOptions, 'scope' | 'changedFiles' | 'lastFailures'>,
    selection: { files: string[]; names: string[] },
  ): Promise<TestRun | null>;
  /** The same runner without the named parts after the tests (ones that cannot run here). Optional. */
  withoutParts?(names: readonly string[]): TestRunner;
}

/** What the user asked for; both empty means detect from the project. */
export interface RunnerChoice {
  runner?: string;
  /** A command line as the user typed it (`--test-cmd "npm test"`). */
  testCmd?: string;
  /** Parts of the test command to leave out (`skipParts` in the config): a script name or a part's command line. */
  skipParts?: string[];
}
