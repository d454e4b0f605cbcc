import type { ReportFormat } from '../report/parse-outcome.js';
import type { NormalizedResult, ResultSource } from '../types.js';
import type { RunnerName } from './names.js';

/** Where a run's machine-readable results land and how to read them. */
export interface ReportSpec {
  /** Absolute path of the report file (in the run's temporary folder). */
  file: string;
  /** A report parser's format, or `libtest` (cargo test's own lines, read by the cargo reader). */
  format: ReportFormat | 'libtest' | 'injected';
  /** True when the runner streams the report on stdout (TAP, `go test -json`) and fixcycle saves it to `file`. */
  fromStdout: boolean;
  /** True when the stream may not be a report at all (a plain command's stdout): then the output is read instead. */
  optional?: boolean;
  /** True when a runner version may print the JSON report into its output instead of the file (mocha before 9). */
  stdoutFallback?: boolean;
  /** Set when the command stops at its first failing package (lerna, pnpm -r, turbo): says so, for tests it left unrun. */
  stopsAtFailure?: string;
}

/** One command ready to run. */
export interface Invocation {
  argv: string[];
  /** Variables the test script set. */
  env: Record<string, string>;
  /** Variables for the runner's command only, not the parts around it (the preload that injects fixcycle's reporter). */
  commandEnv?: Record<string, string>;
  /** Commands the test script runs before the runner (a build), run first; a failing step fails the run. */
  setup: string[][];
  /** Null when only the output and exit code can tell (a plain --test-cmd). */
  report: ReportSpec | null;
  /** Files fixcycle writes before the run (mocha's reporter). */
  prepare?: { path: string; content: string }[];
  /**
   * fixcycle's own pytest plugins (files among `prepare`), given to pytest by fixcycle's launcher (hide-own-args.ts),
   * which leaves the tests' command line, environment and sys.path as the user's command has them.
   */
  pytestPlugins?: string[];
  /** Where the command runs, when not the project root (one package of a monorepo); its steps run there too. */
  cwd?: string;
  /** The monorepo package (relative folder) the command runs in: its tests carry it. */
  package?: string;
}

/** Which tests a subset run should run. */
export interface TestSelection {
  /** Repository-relative test files. */
  files: string[];
  /** Test names to narrow the run to, when known (the last segment of a test id). */
  names: string[];
}

/** The commands of one runner in one project, built from how the project starts it. */
export interface RunnerCommands {
  runner: RunnerName;
  /** Where counts come from in a normal run. */
  reportSource: ResultSource;
  /** Said by `doctor` and the status line: `vitest JSON report (--outputFile)`. */
  reportDetail: string;
  /** What one count is where the runner reports no result per test (tape's assertions); unset for tests. */
  countUnit?: 'assertions';
  full(reportDir: string): Invocation;
  /** Null when the runner cannot run a subset (the full suite runs instead). */
  subset(reportDir: string, selection: TestSelection): Invocation | null;
  /** The runner's own related-tests mode, when it has one. */
  related(reportDir: string, changedFiles: string[]): Invocation | null;
  /** What `doctor` says where `subset` gives no command for placeholder files (a monorepo's runs per package). */
  subsetNote?: string;
  /** Rewrites an output line for the log and the screen (go's JSON events become their text). */
  displayLine?(line: string, stream: 'stdout' | 'stderr'): string | null;
  /** Gives the tests the file they belong to where the report names it only in their titles (ava's `file › title`). */
  identifyTests?(result: NormalizedResult, files: readonly string[] | null, cwd: string): NormalizedResult;
  /**
   * Lists, without running them, every test the full command runs (`cargo test --no-fail-fast -- --list`), for a
   * run that stopped before some: they are then "not run", never missing from the run that stopped.
   */
  listAll?(reportDir: string): Invocation;
  /** Reads the names `listAll` printed on stdout, as a full run's report names them. */
  readList?(stdout: string): string[];
  /** Errors the runner prints outside its report (a Go package that does not build). */
  outputErrors?(output: string): { message: string; file?: string }[];
}
