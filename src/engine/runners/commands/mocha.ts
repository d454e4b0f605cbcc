import { join } from 'node:path';
import type { RunnerCall } from '../analyse-command.js';
import { anyOf, keepOptions, splitArgs } from '../args.js';
import type { Invocation, RunnerCommands } from '../invocation.js';
import { MOCHA_REPORTER_SOURCE } from './mocha-reporter.js';

const VALUE_OPTIONS = new Set(['--require', '-r', '--reporter', '-R', '--reporter-option', '--reporter-options', '-O', '--timeout', '-t', '--ui', '-u', '--config', '--grep', '-g', '--fgrep', '-f', '--file', '--extension', '--ignore', '--exclude', '--spec', '--slow', '-s', '--retries', '--jobs', '-j', '--package', '--node-option', '-n', '--watch-files', '--watch-ignore', '--import', '--loader']);

/** mocha: spec output for people plus the JSON reporter writing to a file (`--reporter-option output=`). */
export function mochaCommands(call: RunnerCall): RunnerCommands {
  const { options, positionals } = splitArgs(call.args, VALUE_OPTIONS);
  const drop = ['--reporter', '-R', '--reporter-option', '--reporter-options', '-O', '--watch', '-w'];
  const own = keepOptions(options, { names: drop });
  const narrow = keepOptions(options, { names: [...drop, '--spec', '--grep', '-g', '--fgrep', '-f', '--forbid-only'] });
  const build = (reportDir: string, argv: string[], withWrappers: boolean): Invocation => {
    const file = join(reportDir, 'mocha.json');
    const reporter = join(reportDir, 'fixcycle-mocha-reporter.cjs');
    return {
      argv: [...(withWrappers ? call.wrappers.flat() : []), ...call.launcher, ...argv, '--reporter', reporter, '--reporter-option', `output=${file}`],
      env: call.env,
      setup: call.setup,
      report: { file, format: 'mocha-json', fromStdout: false },
      prepare: [{ path: reporter, content: MOCHA_REPORTER_SOURCE }],
    };
  };
  return {
    runner: 'mocha',
    reportSource: 'report',
    reportDetail: 'mocha JSON reporter (--reporter-option output=), beside the spec reporter',
    full: (dir) => build(dir, [...own, ...positionals], true),
    subset: (dir, { files, names }) => build(dir, [...narrow, ...(names.length > 0 ? ['--grep', anyOf(names)] : []), ...files], false),
    related: () => null,
  };
}
