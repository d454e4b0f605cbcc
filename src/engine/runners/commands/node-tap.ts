import { join } from 'node:path';
import type { RunnerCall } from '../analyse-command.js';
import { keepOptions, splitArgs } from '../args.js';
import type { Invocation, RunnerCommands } from '../invocation.js';

const VALUE_OPTIONS = new Set([
  '-R',
  '--reporter',
  '-r',
  '--reporter-arg',
  '-g',
  '--grep',
  '-t',
  '--timeout',
  '-j',
  '--jobs',
  '--node-arg',
  '--nyc-arg',
  '--test-arg',
  '--test-regex',
  '--test-ignore',
  '--coverage-report',
  '--output-file',
  '-o',
  '--output-dir',
  '-d',
  '--save',
  '-s',
  '--rcfile',
  '--before',
  '--after',
  '--files',
]);
// Coverage thresholds judge the whole suite: a subset run never meets them.
const COVERAGE = [
  '--check-coverage',
  '--100',
  '--branches',
  '--functions',
  '--lines',
  '--statements',
  '--coverage-report',
];

/**
 * node-tap (`tap`, 12 to 18; 18 calls --no-coverage --disable-coverage): its raw TAP stream on stdout (`--reporter=tap`) is the report, read per test file
 * by top-level subtests, the unit tap counts in each file's plan; subsets by file, without coverage.
 */
export function nodeTapCommands(call: RunnerCall): RunnerCommands {
  const { options, positionals } = splitArgs(call.args, VALUE_OPTIONS);
  const drop = [
    '-R',
    '--reporter',
    '-r',
    '--reporter-arg',
    '-w',
    '--watch',
    '--output-file',
    '-o',
    '--output-dir',
    '-d',
    '-b',
    '--bail',
  ];
  const own = keepOptions(options, { names: drop });
  const narrow = keepOptions(options, { names: [...drop, '-g', '--grep', '--coverage', '--cov', ...COVERAGE] });
  const build = (reportDir: string, argv: string[], withWrappers: boolean): Invocation => ({
    argv: [...(withWrappers ? call.wrappers.flat() : []), ...call.launcher, ...argv, '--reporter=tap'],
    env: call.env,
    setup: call.setup,
    report: { file: join(reportDir, 'stdout.tap'), format: 'node-tap', fromStdout: true },
  });
  return {
    runner: 'tap',
    reportSource: 'report',
    reportDetail:
      "the TAP stream node-tap prints with --reporter=tap; counts are each test file's top-level subtests (tap's own `N of M tests`), not assertions",
    full: (dir) => build(dir, [...own, ...positionals], true),
    subset: (dir, { files }) =>
      files.length === 0
        ? null
        : build(
            dir,
            [...narrow, (call.runnerMajor ?? 0) >= 18 ? '--disable-coverage' : '--no-coverage', ...files],
            false,
          ),
    related: () => null,
  };
}
