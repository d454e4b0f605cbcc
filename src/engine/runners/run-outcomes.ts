import type { CommandResult } from '../process/run-command.js';
import type { NormalizedResult } from '../types.js';
import type { TestRun } from './runner.js';
import { cannotRunMessage, type MissingHere } from './cannot-run-here.js';
import { partFailure, type PartKind, type PartRun } from './script-parts.js';

// The results of runs that end before the runner's own report: a step before the tests that failed or cannot
// run here, or an affected run with nothing to select.

export function describePart(part: PartRun): NonNullable<TestRun['parts']>[number] {
  return {
    command: part.argv,
    kind: part.kind,
    exitCode: part.result?.exitCode ?? null,
    durationMs: part.result?.durationMs ?? 0,
    failed: partFailure(part) !== null,
  };
}

export function notRun(
  step: string[],
  kind: PartKind,
  missing: MissingHere,
  result: CommandResult,
  durationMs: number,
  selection: TestRun['selection'],
  parts: PartRun[],
): TestRun {
  const message = `no test ran: ${cannotRunMessage(step, kind === 'check' ? 'a check run before the tests' : 'run before the tests', missing)}`;
  return {
    ...stoppedBefore(step, result, durationMs, selection, parts, message),
    noTestRan: { cause: 'cannot run here', message },
  };
}

/** A run that a step before the tests ended: no test, the step's message as the run's one error. */
function stoppedBefore(
  step: string[],
  result: CommandResult,
  durationMs: number,
  selection: TestRun['selection'],
  parts: PartRun[],
  message: string,
): TestRun {
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

export function setupFailed(
  step: string[],
  result: CommandResult,
  durationMs: number,
  selection: TestRun['selection'],
  parts: PartRun[],
): TestRun {
  const cause = result.spawnError ?? (result.timedOut ? 'timed out' : `exit code ${result.exitCode ?? result.signal}`);
  const message = `the step the test script runs first (${step.join(' ')}) failed (${cause}), so no test ran; its last output:\n${result.outputTail}`;
  return stoppedBefore(step, result, durationMs, selection, parts, message);
}

export function nothingToRun(reason: string): TestRun {
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
