import { join } from 'node:path';
import type { RunnerCall } from '../analyse-command.js';
import { anyOf, keepOptions, splitArgs } from '../args.js';
import type { Invocation, RunnerCommands } from '../invocation.js';
import { NODE_VALUE_OPTIONS } from '../peel-command.js';

const DETAIL =
  'node:test TAP reporter to a file (--test-reporter=tap --test-reporter-destination), beside spec on stdout';

/**
 * One run of node: its options (`head`), then the reporters (spec on stdout for people, TAP to a file for
 * fixcycle), then the files or the script (`tail`): node reads its options only before the first of them.
 */
function invocation(call: RunnerCall, reportDir: string, head: string[], tail: string[], full: boolean): Invocation {
  const file = join(reportDir, 'node-test.tap');
  const reporters = [
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    '--test-reporter=tap',
    `--test-reporter-destination=${file}`,
  ];
  return {
    // The coverage wrappers (`c8`) only in full runs.
    argv: [...(full ? call.wrappers.flat() : []), ...head, ...reporters, ...tail],
    env: call.env,
    setup: call.setup,
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
  const build = (reportDir: string, opts: string[], files: string[], full: boolean): Invocation =>
    invocation(call, reportDir, [...call.launcher, ...opts], files, full);
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
  const build = (reportDir: string, names: string[], full: boolean): Invocation => {
    const pattern = names.length > 0 ? ['--test-name-pattern', anyOf(names)] : [];
    return invocation(call, reportDir, [...node, ...pattern], [script, ...call.args], full);
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
