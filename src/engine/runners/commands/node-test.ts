import { join } from 'node:path';
import type { RunnerCall } from '../analyse-command.js';
import { anyOf, keepOptions, splitArgs } from '../args.js';
import type { Invocation, RunnerCommands } from '../invocation.js';
import { NODE_VALUE_OPTIONS } from '../peel-command.js';

/**
 * `node --test`: spec output on stdout for people, TAP to a file for fixcycle. TAP rather than JUnit
 * because node's JUnit reporter keeps only "test failed" as the message; TAP carries the real error and stack.
 */
export function nodeTestCommands(call: RunnerCall): RunnerCommands {
  const { options, positionals } = splitArgs(call.args, NODE_VALUE_OPTIONS);
  const drop = ['--test', '--test-reporter', '--test-reporter-destination', '--watch'];
  const own = keepOptions(options, { names: drop });
  const narrow = keepOptions(options, {
    names: [...drop, '--test-name-pattern', '--experimental-test-coverage', '--test-only'],
  });
  // Options, then the reporters, then the files: node reads its options only before the first file.
  const build = (reportDir: string, opts: string[], files: string[], withWrappers: boolean): Invocation => {
    const file = join(reportDir, 'node-test.tap');
    const reporters = [
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      '--test-reporter=tap',
      `--test-reporter-destination=${file}`,
    ];
    return {
      argv: [...(withWrappers ? call.wrappers.flat() : []), ...call.launcher, ...opts, ...reporters, ...files],
      env: call.env,
      setup: call.setup,
      report: { file, format: 'tap', fromStdout: false },
    };
  };
  return {
    runner: 'node-test',
    reportSource: 'report',
    reportDetail:
      'node:test TAP reporter to a file (--test-reporter=tap --test-reporter-destination), beside spec on stdout',
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
