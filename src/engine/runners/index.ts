import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyseCommandLine } from './analyse-command.js';
import { tokenize, splitCommands, plainArgv } from './command-line.js';
import { buildCommands } from './commands/index.js';
import { plainCommands } from './commands/plain.js';
import {
  bareCall,
  detectRunner,
  explainNoRunner,
  findPytestLauncher,
  packageRootLauncher,
  pytestSignal,
} from './detect.js';
import { isRunnerName, RUNNER_NAMES, RunnerResolutionError } from './names.js';
import { findLocalBin, findOnPath, readProject, type ProjectFacts } from './project.js';
import type { RunnerChoice } from './runner.js';
import type { RunnerCall } from './analyse-command.js';
import { CommandTestRunner } from './test-runner.js';
import { skipName } from './cannot-run-here.js';

export type { RunnerChoice, TestRunner, TestRun, RunTestsOptions, NoTestRanCause } from './runner.js';
export { RunnerResolutionError, RUNNER_NAMES } from './names.js';
export { CommandTestRunner } from './test-runner.js';
export { rerunFailures, type RerunTarget } from './rerun.js';
export { selectTestFiles, type TestFileSelection } from './select-tests.js';

/**
 * The test runner for the repository at `cwd`: forced by `--runner`, followed from `--test-cmd` (through
 * package.json scripts to the runner they call), or detected from the project. Throws RunnerResolutionError
 * with a one-line message naming the cause and the fix.
 */
export async function resolveRunner(cwd: string, choice: RunnerChoice): Promise<CommandTestRunner> {
  const project = readProject(cwd);
  if (choice.runner !== undefined && !isRunnerName(choice.runner)) {
    throw new RunnerResolutionError(
      `unknown runner "${choice.runner}": use --runner ${RUNNER_NAMES.filter((n) => n !== 'command').join('|')}, or --test-cmd "<command>"`,
    );
  }
  const skip = choice.skipParts ?? [];
  if (choice.testCmd !== undefined) return fromTestCommand(choice.testCmd, choice.runner, project, skip);
  // A Python project's launcher is asked of its Python without blocking what the run does meanwhile.
  if (pytestSignal(project) && !packageRootLauncher(project)) await findPytestLauncher();
  if (choice.runner !== undefined && choice.runner !== 'command') {
    const detected = detectRunner(project);
    // The test script's own arguments are kept when it calls the forced runner.
    const call = detected?.call.runner === choice.runner ? detected.call : bareCall(choice.runner);
    return make(call, `--runner ${choice.runner}`, project, skip);
  }
  if (choice.runner === 'command')
    throw new RunnerResolutionError('--runner command needs the command: pass --test-cmd "<command>"');
  if (project.packageError)
    throw new RunnerResolutionError(`${project.packageError}: fix it, or pass --test-cmd "<command>"`);
  const detected = detectRunner(project);
  if (!detected) {
    throw new RunnerResolutionError(explainNoRunner(project));
  }
  return make(detected.call, detected.detectedFrom, project, skip);
}

function fromTestCommand(
  line: string,
  forced: string | undefined,
  project: ProjectFacts,
  skip: readonly string[],
): CommandTestRunner {
  const commands = splitCommands(tokenize(line));
  const only = commands.length === 1 ? plainArgv(commands[0]!.words) : null;
  if (line.trim() === '')
    throw new RunnerResolutionError(
      '--test-cmd is empty: pass the command that runs your tests, e.g. --test-cmd "npm test"',
    );
  const found = analyseCommandLine(line, project);
  if (!('unknown' in found) && (forced === undefined || forced === found.runner)) {
    // The last step names the runner's own command, which doctor prints anyway.
    const path = found.trail.slice(0, -1);
    return make(found, `--test-cmd "${line}"${path.length > 0 ? `: ${path.join(' -> ')}` : ''}`, project, skip);
  }
  // Not a runner fixcycle can see into (or not the one --runner names): run it exactly as given.
  if (!only || 'error' in only) {
    const why = only && 'error' in only ? only.error : 'several commands';
    throw new RunnerResolutionError(
      `--test-cmd "${line}" needs a shell (${why}): put it in a package.json script and pass --test-cmd "npm run <script>"`,
    );
  }
  const reason = 'unknown' in found ? found.unknown : `it runs ${found.runner}, not ${forced}`;
  return new CommandTestRunner(plainCommands(only.argv), `--test-cmd "${line}" (${reason}; counts from its output)`);
}

function make(
  call: RunnerCall,
  detectedFrom: string,
  project: ProjectFacts,
  skipParts: readonly string[],
): CommandTestRunner {
  const skipped = leaveOutParts(call, skipParts);
  assertInstalled(call, project);
  if (call.runner === 'tap') call.runnerMajor = installedMajor(project.cwd, 'tap');
  const runner = new CommandTestRunner(buildCommands(call), detectedFrom, call);
  runner.skippedParts = skipped;
  return runner;
}

/** Takes the parts `skipParts` names (`test-headless`, or a part's whole command line) out of the call. */
function leaveOutParts(call: RunnerCall, skipParts: readonly string[]): string[][] {
  if (skipParts.length === 0) return [];
  const names = new Set(skipParts);
  const named = (argv: string[]): boolean => names.has(skipName(argv)) || names.has(argv.join(' '));
  const skipped = [...call.setup.filter(named), ...(call.after ?? []).map((part) => part.argv).filter(named)];
  call.setup = call.setup.filter((argv) => !named(argv));
  if (call.after) call.after = call.after.filter((part) => !named(part.argv));
  return skipped;
}

/** The major version of a package installed in the project's node_modules, when it can be read. */
function installedMajor(cwd: string, pkg: string): number | undefined {
  try {
    const version = (
      JSON.parse(readFileSync(join(cwd, 'node_modules', pkg, 'package.json'), 'utf8')) as { version?: string }
    ).version;
    const major = Number.parseInt(version ?? '', 10);
    return Number.isNaN(major) ? undefined : major;
  } catch {
    return undefined;
  }
}

/** A one-line error now, rather than "command not found" on every run. */
function assertInstalled(call: RunnerCall, project: ProjectFacts): void {
  for (const [wrapper] of call.wrappers) {
    if (wrapper && !findLocalBin(project.cwd, wrapper) && !findOnPath(wrapper)) {
      throw new RunnerResolutionError(
        `the test command runs "${wrapper}", which is not installed in node_modules/.bin (run npm install): install it, or pass --test-cmd "<command>"`,
      );
    }
  }
  const bin = call.launcher[0]!;
  if (bin.includes('/') || findLocalBin(project.cwd, bin) || findOnPath(bin)) return;
  if (call.runner === 'pytest' && bin === 'pytest' && (findOnPath('python3') || findOnPath('python'))) {
    call.launcher = [findOnPath('python3') ? 'python3' : 'python', '-m', 'pytest'];
    return;
  }
  const where = ['node', 'go', 'cargo', 'python', 'python3', 'pytest'].includes(bin)
    ? 'on PATH'
    : `in node_modules/.bin (run npm install)`;
  throw new RunnerResolutionError(
    `${call.runner} runs "${bin}", which is not installed ${where}: install it, or pass --test-cmd "<command>"`,
  );
}
