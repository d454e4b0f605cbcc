import { join } from 'node:path';
import type { RunnerCall } from '../analyse-command.js';
import { anyOf, keepOptions, splitArgs } from '../args.js';
import type { Invocation, RunnerCommands } from '../invocation.js';
import { NODE_VALUE_OPTIONS } from '../peel-command.js';

const DETAIL =
  'node:test TAP reporter to a file (--test-reporter=tap --test-reporter-destination), beside spec on stdout';

/** Spec on stdout for people, TAP to a file for fixcycle, and where fixcycle reads it. */
function reporters(reportDir: string): { flags: string[]; report: NonNullable<Invocation['report']> } {
  const file = join(reportDir, 'node-test.tap');
  return {
    flags: [
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      '--test-reporter=tap',
      `--test-reporter-destination=${file}`,
    ],
    report: { file, format: 'tap', fromStdout: false },
  };
}

/**
 * `node --test`: spec output on stdout for people, TAP to a file for fixcycle. TAP rather than JUnit
 * because node's JUnit reporter keeps only "test failed" as the message; TAP carries the real error and stack.
 */
export function nodeTestCommands(call: RunnerCall): RunnerCommands {
  const script = call.launcher.length > 1 && !call.launcher.at(-1)!.startsWith('-') ? call.launcher.at(-1)! : null;
  if (script !== null) return nodeTestScriptCommands(call, script);
  const { options, positionals } = splitArgs(call.args, NODE_VALUE_OPTIONS);
  const drop = ['--test', '--test-reporter', '--test-reporter-destination', '--watch'];
  const own = keepOptions(options, { names: drop });
  const narrow = keepOptions(options, {
    names: [...drop, '--test-name-pattern', '--experimental-test-coverage', '--test-only'],
  });
  // Options, then the reporters, then the files: node reads its options only before the first file.
  const build = (reportDir: string, opts: string[], files: string[], withWrappers: boolean): Invocation => {
    const { flags, report } = reporters(reportDir);
    return {
      argv: [...(withWrappers ? call.wrappers.flat() : []), ...call.launcher, ...opts, ...flags, ...files],
      env: call.env,
      setup: call.setup,
      report,
    };
  };
  return {
    runner: 'node-test',
    reportSource: 'report',
    reportDetail: DETAIL,
    full: (dir) => build(dir, ['--test', ...own], positionals, true),
    subset: (dir, { files, names }) =>
      build(
        dir,
        ['--test', ...narrow, ...(names.length > 0 ? ['--test-name-pattern', anyOf(names)] : [])],
        files,
        false,
      ),
    related: () => null,
  };
}

/**
 * `node [options] test.js`, a script importing node:test (unified, remark): its tests run in the script's own
 * process, where node's runner honours the same reporter flags, given before the script.
 */
function nodeTestScriptCommands(call: RunnerCall, script: string): RunnerCommands {
  const node = call.launcher.slice(0, -1);
  const build = (reportDir: string, names: string[], withWrappers: boolean): Invocation => {
    const { flags, report } = reporters(reportDir);
    const pattern = names.length > 0 ? ['--test-name-pattern', anyOf(names)] : [];
    return {
      argv: [...(withWrappers ? call.wrappers.flat() : []), ...node, ...pattern, ...flags, script, ...call.args],
      env: call.env,
      setup: call.setup,
      report,
    };
  };
  return {
    runner: 'node-test',
    reportSource: 'report',
    reportDetail: `${DETAIL}, for the tests the script ${script} runs`,
    full: (dir) => build(dir, [], true),
    // The script chooses its test files: a subset is the same script, narrowed by test name.
    subset: (dir, { names }) => build(dir, names, false),
    related: () => null,
  };
}
