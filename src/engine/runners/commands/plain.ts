import { join } from 'node:path';
import type { Invocation, RunnerCommands } from '../invocation.js';

/**
 * A command fixcycle cannot see into: run as given; counts come from a TAP stream on stdout if there is one,
 * else from a runner's summary line in the output, and only as a last resort from the exit code.
 */
export function plainCommands(argv: string[]): RunnerCommands {
  const build = (reportDir: string): Invocation => ({
    argv,
    env: {},
    setup: [],
    report: { file: join(reportDir, 'stdout.txt'), format: 'tap', fromStdout: true, optional: true },
  });
  return {
    runner: 'command',
    reportSource: 'output',
    reportDetail: 'a TAP stream if it prints one, else the summary line, else the exit code',
    full: build,
    subset: () => null,
    related: () => null,
  };
}
