import { join } from 'node:path';
import type { RunnerCall } from '../analyse-command.js';
import { anyOf, keepOptions, splitArgs } from '../args.js';
import type { Invocation, RunnerCommands } from '../invocation.js';

const VALUE_OPTIONS = new Set([
  '--config',
  '-c',
  '--testNamePattern',
  '-t',
  '--testPathPattern',
  '--testPathPatterns',
  '--testPathIgnorePatterns',
  '--maxWorkers',
  '-w',
  '--reporters',
  '--outputFile',
  '--coverageDirectory',
  '--rootDir',
  '--roots',
  '--selectProjects',
  '--shard',
  '--testTimeout',
  '--testEnvironment',
  '--env',
  '--seed',
  '--collectCoverageFrom',
  '--coverageReporters',
  '--coverageProvider',
  '--setupFiles',
  '--setupFilesAfterEach',
  '--testMatch',
  '--testRegex',
  '--moduleDirectories',
  '--modulePaths',
  '--projects',
  '--changedSince',
  '--testSequencer',
  '--globalSetup',
  '--globalTeardown',
]);

/** jest: `--json --outputFile` while its reporter streams on stderr; `--findRelatedTests` for related tests. */
export function jestCommands(call: RunnerCall): RunnerCommands {
  const { options, positionals } = splitArgs(call.args, VALUE_OPTIONS);
  const drop = [
    '--json',
    '--outputFile',
    '--watch',
    '--watchAll',
    '--onlyChanged',
    '-o',
    '--listTests',
    '--findRelatedTests',
    '--runTestsByPath',
  ];
  const own = keepOptions(options, { names: drop });
  const narrow = keepOptions(options, {
    names: [
      ...drop,
      '--coverage',
      '--collectCoverage',
      '-t',
      '--testNamePattern',
      '--testPathPattern',
      '--testPathPatterns',
      '--shard',
      '--changedSince',
    ],
  });
  const build = (reportDir: string, argv: string[], withWrappers: boolean): Invocation => {
    const file = join(reportDir, 'jest.json');
    return {
      argv: [
        ...(withWrappers ? call.wrappers.flat() : []),
        ...call.launcher,
        ...argv,
        '--json',
        `--outputFile=${file}`,
      ],
      env: call.env,
      setup: call.setup,
      report: { file, format: 'jest-json', fromStdout: false },
    };
  };
  return {
    runner: 'jest',
    reportSource: 'report',
    reportDetail: `jest JSON report (--json --outputFile)${call.wrapper ? `, passed on by the wrapper script: ${call.wrapper}` : ''}`,
    full: (dir) => build(dir, [...own, ...positionals], true),
    subset: (dir, { files, names }) =>
      build(
        dir,
        [
          ...narrow,
          '--passWithNoTests',
          ...(names.length > 0 ? ['-t', anyOf(names)] : []),
          '--runTestsByPath',
          ...files,
        ],
        false,
      ),
    related: (dir, changed) => build(dir, [...narrow, '--passWithNoTests', '--findRelatedTests', ...changed], false),
  };
}
