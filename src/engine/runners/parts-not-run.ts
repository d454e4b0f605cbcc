import type { CommandResult } from '../process/run-command.js';
import type { NormalizedResult, RunError } from '../types.js';
import { cannotRunMessage, missingHere, skipName } from './cannot-run-here.js';
import type { PartNotRun } from './runner.js';
import { partFailure, type PartRun } from './script-parts.js';
import { needsWhatIsNotHere } from './tests-that-cannot-run.js';

/** A part of the test command after the runner that failed only because something it needs is not here. */
export interface BlockedPart {
  part: PartRun;
  notRun: PartNotRun;
}

/** The first part after the tests that failed because something it needs is missing here. */
export function firstBlockedPart(parts: readonly PartRun[], cwd: string): BlockedPart | null {
  for (const part of parts) {
    if (!partFailure(part)) continue;
    const missing = missingHere(part.result!, cwd);
    if (missing)
      return {
        part,
        notRun: {
          name: skipName(part.argv),
          command: part.argv,
          needs: missing.what,
          message: cannotRunMessage(part.argv, 'run after the tests', missing),
        },
      };
  }
  return null;
}

/**
 * The command itself failed after every test it ran passed, saying something it needs is not here: a step
 * inside it (a task runner's `make test` runs mocha, then karma, which finds no browser) that fixcycle cannot
 * leave out, since it cannot split the command. The tests that ran are the session's; the step is named.
 */
export function blockedInside(
  command: CommandResult,
  argv: string[],
  result: NormalizedResult,
  cwd: string,
): PartNotRun | null {
  if (result.tests.length === 0 || result.tests.some((test) => test.status === 'failed')) return null;
  const missing = missingHere(command, cwd);
  if (!missing) return null;
  return {
    // Not a part skipParts can name: the whole command it is inside.
    name: argv.join(' '),
    command: argv,
    needs: missing.what,
    inside: true,
    message: cannotRunMessage(argv, 'a step inside it, after its tests passed', missing, false),
  };
}

/**
 * True when the parts that ran here failed for reasons the code can answer for: a failed test or an error that
 * is not about this machine. Then a part that cannot run here is left out, and those failures are the agent's
 * work; without them the part's stop ends the session before any agent call.
 */
export function workHere(result: NormalizedResult, otherPartErrors: readonly RunError[]): boolean {
  return (
    otherPartErrors.length > 0 ||
    result.errors.some((error) => !needsWhatIsNotHere(error)) ||
    result.tests.some(
      (test) => test.status === 'failed' && !needsWhatIsNotHere({ message: test.message ?? '', ...test }),
    )
  );
}
