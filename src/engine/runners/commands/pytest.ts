import { join } from 'node:path';
import type { RunnerCall } from '../analyse-command.js';
import { keepOptions, splitArgs } from '../args.js';
import type { Invocation, RunnerCommands } from '../invocation.js';
import { pytestSubtestsPlugin } from './pytest-subtests-plugin.js';

const VALUE_OPTIONS = new Set([
  '-k',
  '-m',
  '-p',
  '-c',
  '--rootdir',
  '-o',
  '--override-ini',
  '--junitxml',
  '--junit-xml',
  '--tb',
  '-n',
  '--numprocesses',
  '--maxfail',
  '--deselect',
  '--ignore',
  '--ignore-glob',
  '--confcutdir',
  '--basetemp',
  '--durations',
  '--cov-report',
  '--cov-config',
  '--import-mode',
  '-W',
  '--log-level',
]);

/** pytest: JUnit XML to a file (`--junitxml`) while its own output streams; subsets by file with `-k` names. */
export function pytestCommands(call: RunnerCall): RunnerCommands {
  const { options, positionals } = splitArgs(call.args, VALUE_OPTIONS);
  const drop = ['--junitxml', '--junit-xml'];
  const own = keepOptions(options, { names: drop });
  const narrow = keepOptions(options, {
    names: [...drop, '-k', '--lf', '--last-failed', '--ff', '--sw', '--stepwise'],
    prefixes: ['--cov'],
  });
  const build = (reportDir: string, argv: string[]): Invocation => {
    const file = join(reportDir, 'pytest.xml');
    const plugin = pytestSubtestsPlugin(reportDir);
    return {
      // xunit1: the only JUnit flavour in which pytest writes each test's file.
      argv: [...call.launcher, ...argv, `--junitxml=${file}`, '-o', 'junit_family=xunit1'],
      env: call.env,
      setup: call.setup,
      report: { file, format: 'junit', fromStdout: false },
      // It marks in the report the skipped subtests, which pytest's JUnit writes as skipped tests.
      prepare: [plugin],
      pytestPlugins: [plugin.path],
    };
  };
  return {
    runner: 'pytest',
    reportSource: 'report',
    reportDetail: 'pytest JUnit XML (--junitxml)',
    full: (dir) => build(dir, [...own, ...positionals]),
    subset: (dir, { files, names }) => {
      // -k takes names, not pytest's parametrised ids: `test_x[1-2]` narrows to `test_x`.
      const plain = [...new Set(names.map((name) => name.replace(/\[.*$/, '')).filter((name) => /^\w+$/.test(name)))];
      return build(dir, [
        ...narrow,
        ...(plain.length > 0 && plain.length === names.length ? ['-k', plain.join(' or ')] : []),
        ...files,
      ]);
    },
    related: () => null,
  };
}
