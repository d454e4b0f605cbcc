import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCommand } from '../process/run-command.js';
import type { NormalizedResult } from '../types.js';
import type { Invocation, RunnerCommands } from './invocation.js';
import { isExitWithoutFailure, readRun } from './read-result.js';
import { loadReportParsers } from './report-access.js';
import type { RunTestsOptions, TestRun } from './runner.js';
import { testCommandEnv } from './run-env.js';
import type { RunnerCall } from './analyse-command.js';
import { hideOwnArgs } from './hide-own-args.js';
import { expandGlobWords } from './expand-globs.js';
import { whyNoTestRan } from './no-test-ran.js';
import { missingHere } from './cannot-run-here.js';
import { testsThatCannotRunHere } from './tests-that-cannot-run.js';
import { absentSubmodules } from './absent-submodules.js';
import { markAbsentSubmoduleData } from './absent-submodule-data.js';
import { afterPartTests, readsAfterPart } from './after-part-tests.js';
import { blockedInside, firstBlockedPart, workHere } from './parts-not-run.js';
import { testsNotRun } from './tests-not-run.js';
import { isCheckPart, partFailure, type PartKind, type PartRun } from './script-parts.js';
import { describePart, notRun, setupFailed } from './run-outcomes.js';

/** What one run of the user's test command needs to know of the runner it runs. */
export interface RunnerParts {
  commands: RunnerCommands;
  /** How the user's own script starts the runner; null for a plain --test-cmd. */
  call: RunnerCall | null;
  /** The parts of the test script after the runner, run with the full suite. */
  after: NonNullable<RunnerCall['after']>;
}

/**
 * Runs the user's command, every part of it (the setup and checks before the runner, the runner, the parts
 * after it), in a temporary report folder, and reads the runner's result with what the parts add to it.
 */
export async function executeRun(
  { commands, call, after }: RunnerParts,
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
    const globs = new Set(call?.globs ?? []);
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
    const userCall = call ? { ...call, args: expand(call.args) } : undefined;
    // What runs: the same, with fixcycle's reporter flags out of the tests' sight.
    const launched = hideOwnArgs(invocation, userCall, cwd, reportDir);
    for (const file of launched.prepare ?? []) writeFileSync(file.path, file.content);
    if (invocation.setup.length > 0 || (scope === 'full' && after.length > 0)) announce(invocation.argv);
    const command = await runCommand(launched.argv, {
      ...common,
      ...(invocation.commandEnv ? { env: { ...common.env, ...invocation.commandEnv } } : {}),
      timeoutMs: remaining(),
      outputFile,
      ...(invocation.report?.fromStdout ? { stdoutFile: invocation.report.file } : {}),
      ...(commands.displayLine ? { displayLine: commands.displayLine } : {}),
    });
    const partsAfter = scope === 'full' && after.length > 0;
    if (!partsAfter) options.onCommandsDone?.();
    const reportWritten =
      invocation.report !== null && existsSync(invocation.report.file) && statSync(invocation.report.file).size > 0;
    const output = readFileSync(outputFile, 'utf8');
    await parsersReady();
    const read = readRun({
      commands: commands,
      invocation,
      command,
      output,
      scope: scope === 'subset' ? 'subset' : scope,
      cwd: options.cwd,
      files: selection?.files ?? null,
    });
    if (scope === 'full' && read.result.stopped) {
      const listed = await testsNotRun(commands, read.result, reportDir, {
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
      for (const next of after) {
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
    // The command itself failed in a step that cannot run here after its tests passed (a task runner's karma):
    // its exit is that step's, not a failure of the tests.
    const inside = noTestRan || blocked ? null : blockedInside(command, invocation.argv, result, options.cwd);
    const ran = inside ? { ...result, errors: result.errors.filter((error) => !isExitWithoutFailure(error)) } : result;
    const withParts = counted.size === 0 ? ran : mergeResults(ran, [...counted.values()]);
    // A part after the tests that cannot run here stops the session as one before them does, unless what ran
    // failed for the code's own reasons: then the part is left out and reported, and those failures are the
    // agent's. A full run whose every failure, a failed part's included, is a test that cannot run here stops too.
    const leftOut = blocked && workHere(withParts, errorsOf(parts.filter((part) => part !== blocked.part)));
    const partErrors = errorsOf(leftOut ? parts.filter((part) => part !== blocked.part) : parts);
    // A step inside stops the first run as a part does; once the agent has worked (a later run), the tests that
    // ran are what the session can check, and the step is named beside them.
    const insideLeftOut = inside && (!options.probeParts || workHere(withParts, partErrors));
    const stop = (blocked && !leftOut ? blocked.notRun : null) ?? (inside && !insideLeftOut ? inside : null);
    const cannotRun = noTestRan
      ? null
      : stop
        ? { cause: 'cannot run here' as const, message: stop.message }
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
      ...(leftOut ? { partsNotRun: [blocked.notRun] } : insideLeftOut ? { partsNotRun: [inside] } : {}),
      ...(commands.countUnit ? { countUnit: commands.countUnit } : {}),
    };
  } finally {
    rmSync(reportDir, { recursive: true, force: true });
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
