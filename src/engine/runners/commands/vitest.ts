import { join } from 'node:path';
import type { RunnerCall } from '../analyse-command.js';
import { anyOf, keepOptions, splitArgs } from '../args.js';
import type { Invocation, RunnerCommands } from '../invocation.js';
import { vitestUnhandledErrors } from './vitest-output.js';

const VALUE_OPTIONS = new Set([
  '--config',
  '-c',
  '--root',
  '-r',
  '--dir',
  '--project',
  '--environment',
  '--pool',
  '--reporter',
  '--outputFile',
  '--testNamePattern',
  '-t',
  '--shard',
  '--mode',
  '--exclude',
  '--maxWorkers',
  '--minWorkers',
  '--testTimeout',
  '--hookTimeout',
  '--retry',
  '--bail',
  '--sequence.seed',
  '--inspect',
  '--inspect-brk',
  '--workspace',
]);
const SUBCOMMANDS = new Set(['run', 'watch', 'dev', 'related']);

/** vitest: JSON report to a file while the default reporter streams; `vitest related` for related tests. */
export function vitestCommands(call: RunnerCall): RunnerCommands {
  const args = SUBCOMMANDS.has(call.args[0] ?? '') ? call.args.slice(1) : call.args;
  const { options, positionals } = splitArgs(args, VALUE_OPTIONS);
  const reporterless = {
    names: ['--reporter', '--outputFile', '--watch', '-w', '--run', '--ui', '--open'],
    prefixes: ['--outputFile.'],
  };
  const own = keepOptions(options, reporterless);
  const narrow = keepOptions(options, {
    ...reporterless,
    names: [...reporterless.names, '--coverage', '-t', '--testNamePattern', '--shard'],
    prefixes: ['--outputFile.', '--coverage.'],
  });
  const build = (reportDir: string, argv: string[], withWrappers: boolean): Invocation => {
    const file = join(reportDir, 'vitest.json');
    return {
      argv: [
        ...(withWrappers ? call.wrappers.flat() : []),
        ...call.launcher,
        ...argv,
        '--reporter=default',
        '--reporter=json',
        `--outputFile.json=${file}`,
      ],
      env: call.env,
      setup: call.setup,
      report: { file, format: 'vitest-json', fromStdout: false },
    };
  };
  return {
    runner: 'vitest',
    reportSource: 'report',
    reportDetail: 'vitest JSON report (--reporter=json --outputFile.json)',
    outputErrors: vitestUnhandledErrors,
    full: (dir) => build(dir, ['run', ...own, ...positionals], true),
    subset: (dir, { files, names }) =>
      build(
        dir,
        ['run', ...narrow, ...files, ...(names.length > 0 ? ['-t', anyOf(names)] : []), '--passWithNoTests'],
        false,
      ),
    related: (dir, changed) => build(dir, ['related', '--run', ...narrow, ...changed, '--passWithNoTests'], false),
  };
}
