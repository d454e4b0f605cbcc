import { resolveRunner, RunnerResolutionError } from '../engine/runners/index.js';
import type { RunnerChoice } from '../engine/runners/runner.js';
import { ConfigError, loadConfig, type FixcycleConfig } from '../engine/config.js';
import { agentDoctorLines } from './doctor-agents.js';
import type { Output } from './output.js';
import { isCheckPart } from '../engine/runners/script-parts.js';

/** What `fixcycle doctor` was asked for: the same runner options as `run`. */
export interface DoctorOptions {
  testCmd?: string;
  runner?: string;
}

const SOURCE_WORDS = {
  report: 'a report',
  output: 'the output',
  'exit-code': 'the exit code only',
} as const;

const AFFECTED_WORDS: Record<string, string> = {
  jest: "jest's related mode (--findRelatedTests) on the changed files, plus the tests that failed last time",
  pytest: 'the test files that import the changed modules, plus the tests that failed last time',
  go: 'the packages of the changed files, plus the tests that failed last time',
  cargo: 'the full suite (cargo builds the whole crate)',
  command: 'the full suite (fixcycle cannot run a subset of a plain command)',
  tap: 'the full suite (no affected-test selection for node-tap yet); failing tests re-run by file',
  uvu: 'the full suite (uvu cannot run a subset)',
};

/** A command as a person would type it: words quoted only when they need it (`<placeholders>` stay readable). */
export function displayCommand(argv: string[]): string {
  return argv.map((word) => (/^[\w@%+=:,./<>-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`)).join(' ');
}

/**
 * The runner section of `fixcycle doctor`: the runner, what it was detected from, the exact full, subset and
 * related commands, and where counts come from. Throws RunnerResolutionError when no runner resolves.
 */
export async function runnerDoctorLines(cwd: string, choice: RunnerChoice): Promise<string[]> {
  const runner = await resolveRunner(cwd, choice);
  const described = runner.describe();
  const show = (argv: string[] | null, none: string): string => (argv ? displayCommand(argv) : none);
  const lines = [
    `test runner: ${runner.name}`,
    `  detected from: ${runner.detectedFrom}`,
    `  full suite:    ${show(described.full, '')}`,
    `  subset:        ${show(described.subset, runner.commands.subsetNote ?? `none (${runner.name} cannot run a subset: affected runs use the full suite)`)}`,
    `  related:       ${show(described.related, `none (${runner.name} has no related-tests mode)`)}`,
  ];
  for (const step of described.setup)
    lines.push(
      `  runs first:    ${displayCommand(step)}${isCheckPart(step) ? ' (a check: with the full suite only)' : ''}`,
    );
  for (const step of described.after)
    lines.push(`  then runs:     ${displayCommand(step)} (with the full suite; a failure counts)`);
  for (const step of runner.skippedParts)
    lines.push(`  left out:      ${displayCommand(step)} (skipParts in fixcycle.config.json)`);
  lines.push(`  counts from:   ${SOURCE_WORDS[described.reportSource]}: ${described.reportDetail}`);
  lines.push(
    `  affected runs: ${AFFECTED_WORDS[runner.name] ?? 'the tests that import the changed files (import graph), plus the tests that failed last time'}`,
  );
  return lines;
}

/** `fixcycle doctor`: prints what fixcycle detected and will run. Exit 0, or 2 when no runner resolves. */
export async function runDoctorCommand(cwd: string, opts: DoctorOptions, out: Output): Promise<number> {
  const choice: RunnerChoice = {
    ...(opts.runner ? { runner: opts.runner } : {}),
    ...(opts.testCmd ? { testCmd: opts.testCmd } : {}),
  };
  let config: FixcycleConfig;
  try {
    config = await loadConfig(cwd);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    out.stderr(`fixcycle: ${error.message}`);
    return 2;
  }
  let code = 0;
  try {
    out.stdout(
      (
        await runnerDoctorLines(cwd, {
          ...(config.runner ? { runner: config.runner } : {}),
          ...(config.testCommand ? { testCmd: config.testCommand } : {}),
          ...(config.skipParts ? { skipParts: config.skipParts } : {}),
          ...choice,
        })
      ).join('\n'),
    );
  } catch (error) {
    if (!(error instanceof RunnerResolutionError)) throw error;
    out.stderr(`fixcycle: ${error.message}`);
    code = 2;
  }
  out.stdout('');
  out.stdout((await agentDoctorLines(cwd, config)).join('\n'));
  return code;
}
