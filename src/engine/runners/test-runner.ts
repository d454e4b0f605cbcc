import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCommand, type CommandResult } from '../process/run-command.js';
import type { NormalizedResult } from '../types.js';
import type { Invocation, RunnerCommands, TestSelection } from './invocation.js';
import { readRun } from './read-result.js';
import { loadReportParsers } from './report-access.js';
import type { RunTestsOptions, TestRun, TestRunner } from './runner.js';
import { testCommandEnv } from './run-env.js';
import { selectTestFiles } from './select-tests.js';
import type { RunnerCall } from './analyse-command.js';
import { hideOwnArgs } from './hide-own-args.js';
import { expandGlobWords } from './expand-globs.js';
import { whyNoTestRan } from './no-test-ran.js';
import { cannotRunMessage, missingHere, skipName, type MissingHere } from './cannot-run-here.js';
import { testsThatCannotRunHere } from './tests-that-cannot-run.js';
import { absentSubmodules } from './absent-submodules.js';
import { markAbsentSubmoduleData } from './absent-submodule-data.js';
import { afterPartTests, readsAfterPart } from './after-part-tests.js';
import { firstBlockedPart, workHere } from './parts-not-run.js';
import { testsNotRun } from './tests-not-run.js';
import { isCheckPart, partFailure, type PartKind, type PartRun } from './script-parts.js';
import { withoutSessionLink } from '../session/session-link.js';

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
    return withoutSessionLink(options.cwd, () => this.executeHere(options, build, scope, selection));
  }

  private async executeHere(
    options: RunTestsOptions,
    build: (reportDir: string) => Invocation,
    scope: 'full' | 'affected' | 'subset',
    selection: TestRun['selection'],
  ): Promise<TestRun> {
    const reportDir = mkdtempSync(join(tmpdir(), 'fixcycle-run-'));
    const started = Date.now();
    try {
      const built = build(reportDir);
      // One package of a monorepo runs its own runner in its folder; everything else runs at the root.
      const cwd = built.cwd ?? options.cwd;
      const globs = new Set(this.call?.globs ?? []);
      const expand = (argv: string[]): string[] => expandGlobWords(argv, globs, cwd);
      const outputFile = join(reportDir, 'output.log');
      const remaining = (): number => Math.max(1, options.timeoutMs - (Date.now() - started));
      // The report parsers (tap-parser, yaml, fast-xml-parser: about 0.4 MB to compile) load once a command
      // prints: its start-up is over by then, and the compile no longer slows it on a machine with few cores.
      let parsersLoad: Promise<void> | undefined;
      const parsersReady = (): Promise<void> => (parsersLoad ??= loadReportParsers());
      let printed = false;
      const common = {
        cwd,
        env: testCommandEnv(built.env),
        preferLocal: true,
        signal: options.signal,
        onLines: (lines: string[]): void => {
          if (!printed) {
            printed = true;
            void parsersReady().catch(() => undefined);
            options.onCommandOutput?.();
          }
          options.onLines?.(lines);
        },
        logFile: options.logFile,
      };
      const parts: PartRun[] = [];
      const announce = (argv: string[]): void => {
        options.onLines?.([`$ ${argv.join(' ')}`]);
        if (options.logFile) appendFileSync(options.logFile, `$ ${argv.join(' ')}\n`);
      };
      const probes: PartRun[] = [];
      const probePart = async (argv: string[]): Promise<PartRun> => {
        announce(argv);
        return { argv, kind: 'after', result: await runCommand(argv, { ...common, timeoutMs: remaining() }) };
      };
      const afterStdout = new Map<PartRun, string>();
      const runPart = async (argv: string[], kind: PartKind, stdoutFile?: string): Promise<PartRun> => {
        announce(argv);
        const part: PartRun = {
          argv,
          kind,
          result: await runCommand(argv, { ...common, timeoutMs: remaining(), ...(stdoutFile ? { stdoutFile } : {}) }),
        };
        if (stdoutFile) afterStdout.set(part, stdoutFile);
        parts.push(part);
        options.onPart?.(part);
        return part;
      };
      for (const written of built.setup) {
        const kind = isCheckPart(written) ? 'check' : 'setup';
        // A check (a linter) runs with the full suite only: a re-test is about the tests the fix can break.
        if (kind === 'check' && scope !== 'full') continue;
        const step = expand(written);
        const part = await runPart(step, kind);
        if (partFailure(part)) {
          await parsersReady();
          const missing = missingHere(part.result!, options.cwd);
          if (missing) return notRun(step, kind, missing, part.result!, Date.now() - started, selection, parts);
        }
        if (kind === 'setup' && partFailure(part))
          return setupFailed(step, part.result!, Date.now() - started, selection, parts);
      }
      // The runner's globs expand now, after the setup parts wrote what they match.
      const invocation = { ...built, argv: expand(built.argv) };
      const userCall = this.call ? { ...this.call, args: expand(this.call.args) } : undefined;
      // What runs: the same, with fixcycle's reporter flags out of the tests' sight.
      const launched = hideOwnArgs(invocation, userCall, cwd, reportDir);
      for (const file of launched.prepare ?? []) writeFileSync(file.path, file.content);
      if (invocation.setup.length > 0 || (scope === 'full' && this.after.length > 0)) announce(invocation.argv);
      const command = await runCommand(launched.argv, {
        ...common,
        ...(invocation.commandEnv ? { env: { ...common.env, ...invocation.commandEnv } } : {}),
        timeoutMs: remaining(),
        outputFile,
        ...(invocation.report?.fromStdout ? { stdoutFile: invocation.report.file } : {}),
        ...(this.commands.displayLine ? { displayLine: this.commands.displayLine } : {}),
      });
      const partsAfter = scope === 'full' && this.after.length > 0;
      if (!partsAfter) options.onCommandsDone?.();
      const reportWritten =
        invocation.report !== null && existsSync(invocation.report.file) && statSync(invocation.report.file).size > 0;
      const output = readFileSync(outputFile, 'utf8');
      await parsersReady();
      const read = readRun({
        commands: this.commands,
        invocation,
        command,
        output,
        scope: scope === 'subset' ? 'subset' : scope,
        cwd: options.cwd,
        files: selection?.files ?? null,
      });
      if (scope === 'full' && read.result.stopped) {
        const listed = await testsNotRun(this.commands, read.result, reportDir, {
          cwd,
          env: common.env,
          timeoutMs: remaining(),
        });
        if (listed.length > 0) read.result = { ...read.result, tests: [...read.result.tests, ...listed] };
      }
      const source = read.source;
      // A test that fails reading a git submodule that is not checked out cannot run here: marked so.
      const result = failedAny(read.result)
        ? markAbsentSubmoduleData(read.result, options.cwd, await absentSubmodules(options.cwd))
        : read.result;
      const noTestRan = whyNoTestRan({ result, command, invocation, reportWritten, output, cwd: options.cwd });
      if (scope === 'full' && !noTestRan && !command.timedOut && !command.aborted) {
        // The rest of the script, as the shell would run it: a part after `&&` only when the command before it passed.
        let lastPassed = command.exitCode === 0;
        for (const next of this.after) {
          if (next.when === '&&' && !lastPassed) {
            // The shell would not run it now; a first run still tries it, to learn whether it can run here at all.
            if (options.probeParts) probes.push(await probePart(expand(next.argv)));
            continue;
          }
          // A part that runs the runner again prints its stream too: saved, to count its tests.
          const stdoutFile = readsAfterPart(invocation.report)
            ? join(reportDir, `after-${afterStdout.size}.out`)
            : undefined;
          lastPassed = !partFailure(await runPart(expand(next.argv), 'after', stdoutFile));
        }
      }
      if (partsAfter) options.onCommandsDone?.();
      const counted = new Map<PartRun, NormalizedResult>();
      for (const [part, file] of afterStdout) {
        const read = afterPartTests(part, file, invocation.report!, cwd);
        if (read) counted.set(part, read);
      }
      const blocked = noTestRan
        ? null
        : firstBlockedPart([...parts.filter((part) => part.kind === 'after'), ...probes], options.cwd);
      const errorsOf = (kept: PartRun[]) =>
        kept.flatMap((part) => {
          const failure = partFailure(part);
          // A part whose own tests failed says so through them; it failed as a part only when none did.
          if (counted.get(part)?.tests.some((test) => test.status === 'failed')) return [];
          return failure ? [{ message: failure }] : [];
        });
      const withParts = counted.size === 0 ? result : mergeResults(result, [...counted.values()]);
      // A part after the tests that cannot run here stops the session as one before them does, unless what ran
      // failed for the code's own reasons: then the part is left out and reported, and those failures are the
      // agent's. A full run whose every failure, a failed part's included, is a test that cannot run here stops too.
      const leftOut = blocked && workHere(withParts, errorsOf(parts.filter((part) => part !== blocked.part)));
      const partErrors = errorsOf(leftOut ? parts.filter((part) => part !== blocked.part) : parts);
      const cannotRun = noTestRan
        ? null
        : blocked && !leftOut
          ? { cause: 'cannot run here' as const, message: blocked.notRun.message }
          : scope === 'full'
            ? testsThatCannotRunHere({ ...withParts, errors: [...withParts.errors, ...partErrors] })
            : null;
      return {
        result:
          partErrors.length > 0 || cannotRun
            ? {
                ...withParts,
                errors: [...withParts.errors, ...partErrors, ...(cannotRun ? [{ message: cannotRun.message }] : [])],
              }
            : withParts,
        source,
        exitCode: command.exitCode,
        timedOut: command.timedOut,
        durationMs: Date.now() - started,
        command: invocation.argv,
        selection,
        outputTail: command.outputTail,
        parts: parts.map(describePart),
        ...(noTestRan ? { noTestRan } : cannotRun ? { noTestRan: cannotRun } : {}),
        ...(leftOut ? { partsNotRun: [blocked.notRun] } : {}),
        ...(this.commands.countUnit ? { countUnit: this.commands.countUnit } : {}),
      };
    } finally {
      rmSync(reportDir, { recursive: true, force: true });
    }
  }
}

/** The run's own result with the tests and errors of the parts after it that ran the runner again. */
function mergeResults(result: NormalizedResult, more: NormalizedResult[]): NormalizedResult {
  return {
    ...result,
    tests: [...result.tests, ...more.flatMap((r) => r.tests)],
    errors: [...result.errors, ...more.flatMap((r) => r.errors)],
    truncated: result.truncated || more.some((r) => r.truncated),
  };
}

/** True when a test failed or something failed outside the tests. */
function failedAny(result: NormalizedResult): boolean {
  return result.errors.length > 0 || result.tests.some((test) => test.status === 'failed');
}

function describePart(part: PartRun): NonNullable<TestRun['parts']>[number] {
  return {
    command: part.argv,
    kind: part.kind,
    exitCode: part.result?.exitCode ?? null,
    durationMs: part.result?.durationMs ?? 0,
    failed: partFailure(part) !== null,
  };
}

function notRun(
  step: string[],
  kind: PartKind,
  missing: MissingHere,
  result: CommandResult,
  durationMs: number,
  selection: TestRun['selection'],
  parts: PartRun[],
): TestRun {
  const message = `no test ran: ${cannotRunMessage(step, kind === 'check' ? 'a check run before the tests' : 'run before the tests', missing)}`;
  const empty: NormalizedResult = { format: 'none', tests: [], errors: [{ message }], truncated: false };
  return {
    result: empty,
    source: 'exit-code',
    exitCode: result.exitCode,
    timedOut: result.timedOut,
    durationMs,
    command: step,
    selection,
    outputTail: result.outputTail,
    parts: parts.map(describePart),
    noTestRan: { cause: 'cannot run here', message },
  };
}

function setupFailed(
  step: string[],
  result: CommandResult,
  durationMs: number,
  selection: TestRun['selection'],
  parts: PartRun[],
): TestRun {
  const cause = result.spawnError ?? (result.timedOut ? 'timed out' : `exit code ${result.exitCode ?? result.signal}`);
  const message = `the step the test script runs first (${step.join(' ')}) failed (${cause}), so no test ran; its last output:\n${result.outputTail}`;
  const empty: NormalizedResult = { format: 'none', tests: [], errors: [{ message }], truncated: false };
  return {
    result: empty,
    source: 'exit-code',
    exitCode: result.exitCode,
    timedOut: result.timedOut,
    durationMs,
    command: step,
    selection,
    outputTail: result.outputTail,
    parts: parts.map(describePart),
  };
}

function nothingToRun(reason: string): TestRun {
  const empty: NormalizedResult = { format: 'none', tests: [], errors: [], truncated: false };
  return {
    result: empty,
    source: 'report',
    exitCode: 0,
    timedOut: false,
    durationMs: 0,
    command: [],
    selection: { files: [], reason },
    outputTail: '',
  };
}
