import { join } from 'node:path';
import type { RunnerCall } from '../analyse-command.js';
import { anyOf, keepOptions, splitArgs } from '../args.js';
import type { Invocation, RunnerCommands } from '../invocation.js';
import { MOCHA_REPORT_NAME, MOCHA_REPORTER_SOURCE } from './mocha-reporter.js';

const VALUE_OPTIONS = new Set([
  '--require',
  '-r',
  '--reporter',
  '-R',
  '--reporter-option',
  '--reporter-options',
  '-O',
  '--timeout',
  '-t',
  '--ui',
  '-u',
  '--config',
  '--grep',
  '-g',
  '--fgrep',
  '-f',
  '--file',
  '--extension',
  '--ignore',
  '--exclude',
  '--spec',
  '--slow',
  '-s',
  '--retries',
  '--jobs',
  '-j',
  '--package',
  '--node-option',
  '-n',
  '--watch-files',
  '--watch-ignore',
  '--import',
  '--loader',
]);

/**
 * mocha 5 to 11: spec output for people, and fixcycle's reporter writing mocha's JSON report to a file beside
 * itself (mocha's own JSON reporter ignores `--reporter-option output=` before mocha 9 and prints to stdout).
 */
export function mochaCommands(call: RunnerCall): RunnerCommands {
  const { options, positionals } = splitArgs(call.args, VALUE_OPTIONS);
  const drop = ['--reporter', '-R', '--reporter-option', '--reporter-options', '-O', '--watch', '-w'];
  const own = keepOptions(options, { names: drop });
  const narrow = keepOptions(options, { names: [...drop, '--spec', '--grep', '-g', '--fgrep', '-f', '--forbid-only'] });
  const build = (reportDir: string, argv: string[], withWrappers: boolean): Invocation => {
    const file = join(reportDir, MOCHA_REPORT_NAME);
    const reporter = join(reportDir, 'fixcycle-mocha-reporter.cjs');
    return {
      argv: [...(withWrappers ? call.wrappers.flat() : []), ...call.launcher, ...argv, '--reporter', reporter],
      env: call.env,
      setup: call.setup,
      report: { file, format: 'mocha-json', fromStdout: false, stdoutFallback: true },
      prepare: [{ path: reporter, content: MOCHA_REPORTER_SOURCE }],
    };
  };
  return {
    runner: 'mocha',
    reportSource: 'report',
    reportDetail:
      "mocha's JSON report, written by fixcycle's reporter beside the spec reporter (mocha 5 to 11); else a JSON report mocha printed",
    full: (dir) => build(dir, [...own, ...positionals], true),
    subset: (dir, { files, names }) =>
      build(dir, [...narrow, ...(names.length > 0 ? ['--grep', anyOf(names)] : []), ...files], false),
    related: () => null,
  };
}
