import { existsSync, readFileSync } from 'node:fs';
import { stripVTControlCharacters } from 'node:util';
import type { CommandResult } from '../process/run-command.js';
import type { SummaryCounts } from '../report/index.js';
import type { NormalizedResult, ResultSource, RunError, TestCase } from '../types.js';
import type { Invocation, RunnerCommands } from './invocation.js';
import { CUT_INSIDE } from '../report/tap-cut.js';
import { readLibtestOutput } from './libtest-output.js';
import { failureSection, jsonReportInOutput, parseRunnerReport, readSummaryCounts } from './report-access.js';
import { inPackage, readInjectedReports } from './wrapped/read-injected.js';

/** What a finished command's results are, read from the best source there is. */
export interface RunReading {
  result: NormalizedResult;
  source: ResultSource;
}

/** Everything known about one finished run of the tests. */
export interface FinishedRun {
  commands: RunnerCommands;
  invocation: Invocation;
  command: CommandResult;
  /** The whole displayed output of this run. */
  output: string;
  scope: 'full' | 'affected' | 'subset';
  cwd: string;
  /** The test files the command was given; null for a full run (the runner chose them). */
  files?: readonly string[] | null;
}

// Lines of output quoted in an error: enough to show a stack, few enough to read.
const QUOTED_LINES = 40;
const EXITED_WITHOUT_FAILURE = 'the test command exited with code';

/** The error a run gets when its command failed although every test it ran passed. */
export function isExitWithoutFailure(error: RunError): boolean {
  return error.message.startsWith(EXITED_WITHOUT_FAILURE);
}

/**
 * Reads a run: its report when there is one, else the summary line of its output, else its exit code.
 * A run that produced no report, timed out, was killed, exited non-zero with every test passing, or
 * ran no test at all gets an error, so it can never read as success.
 */
export function readRun(run: FinishedRun): RunReading {
  const { command, invocation, commands } = run;
  const errors: RunError[] = [];
  let reading = readReport(run, errors);
  if (!reading) {
    const counts = readSummaryCounts(run.output);
    reading = counts
      ? { result: resultFromCounts(counts, run.output), source: 'output' }
      : { result: resultFromExitCode(run, errors.length > 0), source: 'exit-code' };
  }
  const identified = commands.identifyTests
    ? commands.identifyTests(reading.result, run.files ?? null, invocation.cwd ?? run.cwd)
    : reading.result;
  const result = { ...withPackage(identified, invocation.package), errors: [...reading.result.errors] };
  const stopped = stoppedEarly(run, result);
  if (stopped) result.stopped = stopped;
  // Errors printed outside the report; one the report already names gets the printed detail.
  for (const error of commands.outputErrors?.(run.output) ?? []) {
    const known = result.errors.findIndex((other) => other.file !== undefined && other.file === error.file);
    if (known === -1) errors.push(error);
    else if (error.message.length > result.errors[known]!.message.length)
      result.errors[known] = { ...result.errors[known]!, message: error.message };
  }
  if (command.spawnError) {
    errors.push({
      message: `the test command could not start (${command.spawnError}): install the runner, or pass --test-cmd "<command>"`,
    });
  } else if (command.timedOut) {
    errors.push({ message: withOutput('the test command timed out and was killed with its process tree', command) });
  } else if (command.aborted) {
    errors.push({ message: 'the test run was stopped before it finished' });
  } else if (command.signal) {
    errors.push({ message: withOutput(`the test command was killed by ${command.signal}`, command) });
  }
  if (result.truncated && !command.timedOut && !command.aborted) {
    // A stream the parser saw cut inside a test already says so: it gets the run's last output, not a second error.
    const cut = result.errors.findIndex((error) => error.message.startsWith(CUT_INSIDE));
    if (cut >= 0)
      result.errors[cut] = { ...result.errors[cut]!, message: withOutput(result.errors[cut]!.message, command) };
    else
      errors.push({
        message: withOutput('the report stops before its end (the runner crashed or exited early)', command),
      });
  }
  const failing = result.tests.some((test) => test.status === 'failed') || result.errors.length + errors.length > 0;
  if (!failing && command.exitCode !== 0 && command.exitCode !== null) {
    errors.push({
      message: withOutput(`${EXITED_WITHOUT_FAILURE} ${command.exitCode} although no test failed`, command),
    });
  }
  if (run.scope === 'full' && result.tests.length === 0 && result.errors.length + errors.length === 0) {
    errors.push({
      message: withOutput(
        `the test command ran no tests (${invocation.argv.join(' ')}): check its test file patterns, or pass --test-cmd`,
        command,
      ),
    });
  }
  return { result: { ...result, errors: [...result.errors, ...errors] }, source: reading.source };
}

function readReport(run: FinishedRun, errors: RunError[]): RunReading | null {
  const report = run.invocation.report;
  if (!report) return null;
  if (report.format === 'injected') {
    // No runner started under the task or monorepo runner: no test ran, whatever its exit code (never a
    // passing check named after the command).
    const result = readInjectedReports(report.file, run.cwd, report.stopsAtFailure !== undefined) ?? {
      format: 'injected',
      tests: [],
      errors: [],
      truncated: false,
    };
    return { result, source: 'report' };
  }
  let text = existsSync(report.file) ? readFileSync(report.file, 'utf8') : '';
  if (text.trim() === '' && report.stdoutFallback && report.format !== 'libtest')
    text = jsonReportInOutput(run.output, report.format) ?? '';
  if (report.format === 'libtest') {
    const result = readLibtestOutput(text);
    if (result) return { result, source: 'output' };
    if (!run.command.spawnError)
      errors.push({ message: withOutput('cargo test printed no test results (a compile error?)', run.command) });
    return null;
  }
  if (report.optional) {
    if (!looksLikeTap(text)) return null;
  } else if (text.trim() === '') {
    if (!run.command.spawnError && !run.command.aborted) {
      errors.push({
        message: withOutput(
          `the runner wrote no report (exit code ${run.command.exitCode ?? 'none'}): it crashed or could not load its config or tests`,
          run.command,
        ),
      });
    }
    return null;
  }
  const outcome = parseRunnerReport(text, report.format, run.cwd);
  if (!outcome.ok) {
    errors.push({ message: withOutput(outcome.error, run.command) });
    return null;
  }
  return {
    result: outcome.result,
    source: run.commands.reportSource === 'output' && !report.optional ? 'output' : 'report',
  };
}

/** Tests of a run made in one package of a monorepo carry it, with ids as a run of the whole command gives them. */
function withPackage(result: NormalizedResult, pkg: string | undefined): NormalizedResult {
  if (!pkg) return result;
  return { ...result, tests: result.tests.map((test) => ({ ...test, package: pkg, id: inPackage(test.id, pkg) })) };
}

/**
 * Why a failing run did not run everything, when the command stops at its first failure: cargo test at the
 * first failing target (without --no-fail-fast), a monorepo runner at the first failing package.
 */
function stoppedEarly(run: FinishedRun, result: NormalizedResult): string | null {
  const failed = result.tests.some((test) => test.status === 'failed') || result.errors.length > 0;
  if (!failed || run.command.exitCode === 0) return null;
  if (run.invocation.report?.format === 'libtest') {
    const target = /^error: test failed, to rerun pass `([^`]+)`/m.exec(run.output)?.[1];
    return target
      ? `cargo test stopped at the first failing target (${target}), so the targets after it did not run`
      : null;
  }
  return run.invocation.report?.stopsAtFailure ?? null;
}

/** True when stdout carries a TAP stream: a version line, a plan, or test points. */
export function looksLikeTap(text: string): boolean {
  return /^TAP version \d+/m.test(text) || (/^(?:not )?ok\b/m.test(text) && /^\s*1\.\.\d+/m.test(text));
}

/**
 * Counts from a summary line, as tests numbered in a fixed order (passed, then failed, then skipped), so the
 * ids line up from run to run and a pass rate over them stays right while the names are unknown. A failure's
 * message is what the runner printed about its failures, never its JSON or coverage output.
 */
function resultFromCounts(counts: SummaryCounts, output: string): NormalizedResult {
  const tests: TestCase[] = [];
  const printed = counts.failed + counts.errors > 0 ? failureSection(output) : '';
  const unit = counts.unit === 'tests' ? 'test' : counts.unit.replace(/s$/, '');
  const failure = `one of the ${counts.failed} failed ${unit}(s) counted by the ${counts.runner} summary line; fixcycle read no per-test report, so this is what ${counts.runner} printed about its failures:\n${printed}`;
  const add = (status: TestCase['status'], n: number): void => {
    for (let i = 0; i < n; i++) {
      const index = tests.length + 1;
      tests.push({
        id: `summary#${index}`,
        name: `${unit} ${index} (counted from the summary line)`,
        status,
        ...(status === 'failed' ? { message: failure } : {}),
      });
    }
  };
  add('passed', counts.passed);
  add('failed', counts.failed);
  add('skipped', counts.skipped);
  const errors: RunError[] =
    counts.errors > 0
      ? [
          {
            message: `the ${counts.runner} summary counts ${counts.errors} error(s) outside tests; it printed:\n${printed}`,
          },
        ]
      : [];
  return { format: 'summary-line', tests, errors, truncated: false };
}

/** The last resort: one check, the command itself, passed when it exited 0. */
function resultFromExitCode(run: FinishedRun, explained: boolean): NormalizedResult {
  const { command } = run;
  const result: NormalizedResult = { format: 'exit-code', tests: [], errors: [], truncated: false };
  if (command.exitCode === 0 && !command.timedOut) {
    result.tests.push({ id: run.invocation.argv.join(' '), name: 'the test command (exit code 0)', status: 'passed' });
  } else if (command.exitCode !== null && !explained) {
    result.errors.push({
      message: withOutput(
        `the test command failed with exit code ${command.exitCode} and printed no results fixcycle can read`,
        command,
      ),
    });
  }
  return result;
}

function withOutput(cause: string, command: CommandResult): string {
  // The runner's words without its colours: the error goes to a report file and to the agent.
  const tail = lastLines(stripVTControlCharacters(command.outputTail), QUOTED_LINES);
  return tail ? `${cause}; its last output:\n${tail}` : cause;
}

function lastLines(text: string, n: number): string {
  return text.split('\n').slice(-n).join('\n').trim();
}
