import type { Invocation, RunnerCommands, TestSelection } from './invocation.js';
import type { RunTestsOptions, TestRun, TestRunner } from './runner.js';
import { selectTestFiles } from './select-tests.js';
import type { RunnerCall } from './analyse-command.js';
import { skipName } from './cannot-run-here.js';
import { withoutSessionLink } from '../session/session-link.js';
import { executeRun } from './execute-run.js';
import { nothingToRun } from './run-outcomes.js';

// Shown in `doctor` and the status line where a run's own temporary folder goes.
const REPORT_DIR_PLACEHOLDER = '<report-dir>';

/** A TestRunner over one runner's commands. */
export class CommandTestRunner implements TestRunner {
  readonly name: string;

  /** Parts of the test command left out by `skipParts`, for `doctor`. */
  skippedParts: string[][] = [];

  /** The parts of the test script after the runner (`jest && tsc`), run with the full suite. */
  readonly after: NonNullable<RunnerCall['after']>;

  constructor(
    readonly commands: RunnerCommands,
    readonly detectedFrom: string,
    /** How the user's own script starts the runner; null for a plain --test-cmd. */
    private readonly call: RunnerCall | null = null,
  ) {
    this.name = commands.runner;
    this.after = call?.after ?? [];
  }

  /** The coverage wrappers the user's script puts before the runner in full runs (`['c8', '--reporter=lcov']`). */
  get wrappers(): readonly string[][] {
    return this.call?.wrappers ?? [];
  }

  /** The same runner, with every command it starts changed by `change` (coverage flags or variables). */
  withInvocations(change: (inv: Invocation) => Invocation): CommandTestRunner {
    const c = this.commands;
    const commands: RunnerCommands = {
      ...c,
      full: (d) => change(c.full(d)),
      subset: (d, s) => {
        const inv = c.subset(d, s);
        return inv && change(inv);
      },
      related: (d, f) => {
        const inv = c.related(d, f);
        return inv && change(inv);
      },
    };
    const changed = new CommandTestRunner(commands, this.detectedFrom, this.call);
    changed.skippedParts = this.skippedParts;
    return changed;
  }

  /**
   * The runner alone, without the test command's other parts: no setup or check before it, nothing after it.
   * For a run right after a run of the whole command on the same tree (localization's coverage run): the
   * build the setup makes is there already, and the checks and after parts say nothing about the failures.
   */
  runnerOnly(): CommandTestRunner {
    const alone = this.withInvocations((inv) => ({ ...inv, setup: [] }));
    const bare = new CommandTestRunner(alone.commands, this.detectedFrom, this.call && { ...this.call, after: [] });
    bare.skippedParts = this.skippedParts;
    return bare;
  }

  /** The same runner without the named parts after the tests: a part that cannot run here, once reported. */
  withoutParts(names: readonly string[]): CommandTestRunner {
    const out = new Set(names);
    const named = (argv: string[]): boolean => out.has(skipName(argv)) || out.has(argv.join(' '));
    const call = this.call && { ...this.call, after: this.after.filter((part) => !named(part.argv)) };
    const without = new CommandTestRunner(this.commands, this.detectedFrom, call);
    without.skippedParts = [...this.skippedParts, ...this.after.filter((part) => named(part.argv)).map((p) => p.argv)];
    return without;
  }

  describe(): ReturnType<TestRunner['describe']> & { reportDetail: string; setup: string[][]; after: string[][] } {
    const full = this.commands.full(REPORT_DIR_PLACEHOLDER);
    const subset =
      this.commands.subset(REPORT_DIR_PLACEHOLDER, { files: ['<test-files>'], names: [] }) ??
      this.commands.subset(REPORT_DIR_PLACEHOLDER, { files: [], names: ['<test-names>'] });
    const related = this.commands.related(REPORT_DIR_PLACEHOLDER, ['<changed-files>']);
    return {
      full: full.argv,
      subset: subset?.argv ?? null,
      related: related?.argv ?? null,
      reportSource: this.commands.reportSource,
      reportDetail: this.commands.reportDetail,
      // The variables the test command sets (`PYTHONPATH=src pytest`): checks reading the tests as the runner does need them.
      env: full.env,
      setup: full.setup,
      after: this.after.map((part) => part.argv),
    };
  }

  async run(options: RunTestsOptions): Promise<TestRun> {
    if (options.scope === 'full') return this.execute(options, (dir) => this.commands.full(dir), 'full', null);
    const choice = await selectTestFiles(
      options.cwd,
      { name: this.name, preferRelated: this.name === 'jest' },
      options.changedFiles ?? [],
      options.lastFailures ?? [],
      options.suiteFiles,
    );
    if (choice.mode === 'full')
      return {
        ...(await this.execute(options, (dir) => this.commands.full(dir), 'full', null)),
        fallbackReason: choice.reason,
      };
    if (choice.files.length === 0) return nothingToRun(choice.reason);
    const build = (dir: string): Invocation | null =>
      choice.mode === 'related'
        ? this.commands.related(dir, choice.files)
        : this.commands.subset(dir, { files: choice.files, names: [] });
    const probe = build(REPORT_DIR_PLACEHOLDER);
    if (!probe) {
      const reason = `${this.name} cannot run a subset of its tests; running every test`;
      return {
        ...(await this.execute(options, (dir) => this.commands.full(dir), 'full', null)),
        fallbackReason: reason,
      };
    }
    return this.execute(options, (dir) => build(dir)!, 'affected', { files: choice.files, reason: choice.reason });
  }

  /** Runs only the given test files, narrowed to the given test names (flaky re-runs); null when the runner cannot. */
  async runSubset(
    options: Omit<RunTestsOptions, 'scope' | 'changedFiles' | 'lastFailures'>,
    selection: TestSelection,
  ): Promise<TestRun | null> {
    if (!this.commands.subset(REPORT_DIR_PLACEHOLDER, selection)) return null;
    return this.execute({ ...options, scope: 'affected' }, (dir) => this.commands.subset(dir, selection)!, 'subset', {
      files: selection.files,
      reason: `re-run of ${selection.names.length || selection.files.length} failing test(s)`,
    });
  }

  /** Runs the user's command (every part of it) with fixcycle's `.workflow` link out of the tree. */
  private execute(
    options: RunTestsOptions,
    build: (reportDir: string) => Invocation,
    scope: 'full' | 'affected' | 'subset',
    selection: TestRun['selection'],
  ): Promise<TestRun> {
    const runner = { commands: this.commands, call: this.call, after: this.after };
    return withoutSessionLink(options.cwd, () => executeRun(runner, options, build, scope, selection));
  }
}
