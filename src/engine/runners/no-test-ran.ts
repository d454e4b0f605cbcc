import { existsSync, statSync } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';
import type { CommandResult } from '../process/run-command.js';
import type { NormalizedResult } from '../types.js';
import type { Invocation } from './invocation.js';
import { isMissingTool } from './script-parts.js';
import { cannotRunMessage, missingHere } from './cannot-run-here.js';

/** Why a run ran no test at all: not something a change to the code can fix. */
export interface NoTestRan {
  cause: 'missing tool' | 'cannot run here' | 'crashed runner' | 'no report';
  /** One line naming the cause and the fix, then the output that shows it. */
  message: string;
}

const CODE_FILE =
  /(?:^|[\s('"`@])((?:\/|\.\.?\/)?[\w@.+-]+(?:\/[\w@.+-]+)*\.(?:[cm]?[jt]sx?|py|go|rs|rb|coffee|vue|svelte))(?::\d+)?/g;
const CONFIG_NAME =
  /(^|\/)([\w.-]*\.config\.[\w]+|\.[\w-]+rc(\.\w+)?|conftest\.py|setup\.py|package\.json|tsconfig[\w.-]*\.json)$/;

/**
 * A run that reported no test and whose cause lies outside the code: the runner (or a tool the script needs)
 * is not installed, the runner was killed, or it stopped before writing its report without pointing at a
 * source file of the project (a broken config, an internal error). A run that names a source file (an import
 * error in the code under test) is the code's fault and is left to the agent.
 */
export function whyNoTestRan(input: {
  result: NormalizedResult;
  command: CommandResult;
  invocation: Invocation;
  reportWritten: boolean;
  output: string;
  cwd: string;
}): NoTestRan | null {
  const { result, command, invocation } = input;
  if (result.tests.length > 0 || command.timedOut || command.aborted) return null;
  const shown = invocation.argv.join(' ');
  const tail = command.outputTail.trim().split('\n').slice(-20).join('\n');
  const withTail = (line: string): string => (tail ? `${line}; its last output:\n${tail}` : line);
  if (isMissingTool(command)) {
    return {
      cause: 'missing tool',
      message: withTail(
        `no test ran: the test command (${shown}) needs a program that is not installed${command.spawnError ? ` (${command.spawnError})` : ''}: install it, or pass --test-cmd "<command>"`,
      ),
    };
  }
  const missing = missingHere(command, input.cwd);
  if (missing)
    return {
      cause: 'cannot run here',
      message: `no test ran: ${cannotRunMessage(invocation.argv, 'the test runner', missing, false)}`,
    };
  if (command.signal) {
    return {
      cause: 'crashed runner',
      message: withTail(
        `no test ran: the test runner was killed by ${command.signal} before it reported a test: check memory and the runner's own output`,
      ),
    };
  }
  const report = invocation.report;
  if (
    report &&
    !report.optional &&
    !input.reportWritten &&
    command.exitCode !== 0 &&
    !namesSourceFile(input.output, input.cwd)
  ) {
    return {
      cause: 'no report',
      message: withTail(
        `no test ran: the runner exited ${command.exitCode ?? 'without a code'} before writing its report (a crash, or a config or plugin it could not load): run the test command yourself to see why, fix that, then start fixcycle again`,
      ),
    };
  }
  return null;
}

/** True when the output points at a source file of the project (not a config file, not a dependency). */
function namesSourceFile(output: string, cwd: string): boolean {
  for (const match of output.matchAll(CODE_FILE)) {
    const path = match[1]!;
    const full = isAbsolute(path) ? path : join(cwd, path);
    const inside = relative(cwd, full);
    if (
      inside.startsWith('..') ||
      isAbsolute(inside) ||
      /(^|\/)node_modules\//.test(inside) ||
      CONFIG_NAME.test(inside)
    )
      continue;
    try {
      if (existsSync(full) && statSync(full).isFile()) return true;
    } catch {
      continue;
    }
  }
  return false;
}
