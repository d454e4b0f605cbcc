/** How much a failing test matters when deciding whether the session may stop. */
export type Criticality = 'high' | 'medium' | 'low';

/** Where a failure's criticality came from, in order of precedence. */
export type CriticalitySource = 'config' | 'flaky' | 'plan' | 'heuristic' | 'default';

export type TestStatus = 'passed' | 'failed' | 'skipped';

/**
 * How a test's failed subtests are named under it (`<test id> > failed subtest 2`): pytest counts each as a
 * failed test of its own, reported in its test's JUnit case.
 */
export const FAILED_SUBTEST = 'failed subtest';

/** One test as a runner reported it, normalized across runners. */
export interface TestCase {
  /** Stable identity across runs: `<file>::<suite> > <name>` where the runner gives them. */
  id: string;
  name: string;
  file?: string;
  status: TestStatus;
  durationMs?: number;
  message?: string;
  stack?: string;
  /** Why the runner skipped it, where its report says (pytest's `got empty parameter set`, `could not import 'numpy'`). */
  skipReason?: string;
  /** Attempts beyond the first, when the runner retried the test. */
  retries?: number;
  /** The monorepo package (its folder, relative to the root) whose runner reported the test. */
  package?: string;
  /** Set on a failed test that failed only because something it reads is not on this machine. */
  notHere?: NotHere;
}

/** What a failure lacks on this machine, which no change to the code can supply, and how to get it. */
export interface NotHere {
  /** What is missing, as the stop names it: `the git submodule \`test/data\` (...)`. */
  what: string;
  /** How the user gets it: `check it out with \`git submodule update --init test/data\``. */
  remedy: string;
}

/** A failure outside any test: a file that does not import, a package that does not build, a crashed runner. */
export interface RunError {
  message: string;
  file?: string;
  /** Set when it failed only because something it reads is not on this machine. */
  notHere?: NotHere;
}

/** What a parser reads from one report, before the engine adds pass rates and criticality. */
export interface NormalizedResult {
  /** The report format it was read from (`junit`, `tap`, `vitest-json`, ...). */
  format: string;
  tests: TestCase[];
  errors: RunError[];
  /** True when the report stops early (a TAP stream without its plan, a cut-off XML document). */
  truncated: boolean;
  /**
   * Set when the command stopped at a failure before running everything (lerna stops at a failing package,
   * cargo at its first failing target): a baseline test the run did not report was not run, not lost.
   */
  stopped?: string;
}

export type Strategy = 'conservative' | 'aggressive' | 'surgical';

/** A failing test as saved in test-results.json and shown to the agent. */
export interface Failure {
  id: string;
  name: string;
  file?: string;
  message: string;
  stack?: string;
  criticality: Criticality;
  criticality_source: CriticalitySource;
  /** True when the test is no longer reported although it was in the baseline. */
  missing?: boolean;
  /** The monorepo package the test belongs to (its folder, relative to the root). */
  package?: string;
  /** It failed only because something it reads is not on this machine: never the agent's to fix. */
  notHere?: NotHere;
}

/** Where the counts of a run came from, most trustworthy first. */
export type ResultSource = 'report' | 'output' | 'exit-code';

/** test-results.json: one run of the suite (or of the affected tests) over the session's baseline. */
export interface TestResults {
  total: number;
  passed: number;
  failed: number;
  skipped: number;
  /** Percentage over the baseline set, 0-100, two decimals at most. */
  pass_rate: number;
  failures: Failure[];
  /** Failures outside any test (import errors, crashes). Each counts against the run. */
  errors: RunError[];
  scope: 'full' | 'affected';
  source: ResultSource;
  exit_code: number | null;
  timed_out: boolean;
  duration_ms: number;
  /** Ids of the tests this run actually executed (the rest kept their last result). */
  ran?: string[];
  /**
   * Failures of tests that already failed before the session (gen measures the suite before generating): the
   * project's own, reported here and neither sent to the agent nor counted in the pass rate.
   */
  own_failures?: Failure[];
  /** Errors outside tests that were there before the session (a lint step failing before gen): the project's own, not counted. */
  own_errors?: RunError[];
  finished_at: string;
}
