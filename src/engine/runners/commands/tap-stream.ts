import { join } from 'node:path';
import type { RunnerCall } from '../analyse-command.js';
import { keepOptions, splitArgs } from '../args.js';
import type { Invocation, RunnerCommands } from '../invocation.js';
import { avaFileIdentity } from './ava-titles.js';

const TAPE_VALUE_OPTIONS = new Set(['--require', '-r', '--ignore', '-i', '--ignore-pattern']);

/** tape and ava (`--tap`): the TAP stream on stdout is the report; subsets by file. */
export function tapStreamCommands(call: RunnerCall): RunnerCommands {
  const isAva = call.runner === 'ava';
  const { options, positionals } = splitArgs(
    call.args,
    isAva
      ? new Set(['--match', '-m', '--concurrency', '-c', '--timeout', '-T', '--config', '--node-arguments'])
      : TAPE_VALUE_OPTIONS,
  );
  const own = keepOptions(options, { names: ['--tap', '-t', '--watch', '-w'] });
  const narrow = isAva ? keepOptions(options, { names: ['--tap', '-t', '--watch', '-w', '--match', '-m'] }) : own;
  const build = (reportDir: string, argv: string[], withWrappers: boolean): Invocation => ({
    argv: [...(withWrappers ? call.wrappers.flat() : []), ...call.launcher, ...argv, ...(isAva ? ['--tap'] : [])],
    env: call.env,
    setup: call.setup,
    report: { file: join(reportDir, 'stdout.tap'), format: 'tap', fromStdout: true },
  });
  return {
    runner: call.runner,
    reportSource: 'report',
    // tape reports assertions, not tests: the counts say so wherever they are shown.
    reportDetail: isAva
      ? 'the TAP stream ava prints with --tap on stdout; counts are tests'
      : "the TAP stream tape prints on stdout; counts are tape's assertions (tape reports no result per test)",
    ...(isAva ? {} : { countUnit: 'assertions' as const }),
    full: (dir) => build(dir, [...own, ...positionals], true),
    subset: (dir, { files, names }) =>
      build(dir, [...narrow, ...(isAva ? names.flatMap((name) => ['--match', name]) : []), ...files], false),
    related: () => null,
    ...(isAva ? { identifyTests: avaFileIdentity } : {}),
  };
}
