import { join } from 'node:path';
import type { RunnerCall } from '../analyse-command.js';
import type { Invocation, RunnerCommands } from '../invocation.js';

/**
 * uvu: no reporter to choose and no report file, so its own console output on stdout is read: one mark a test
 * per suite, a FAIL block a failed test, and the Total/Passed/Skipped lines. It runs as the project runs it.
 */
export function uvuCommands(call: RunnerCall): RunnerCommands {
  const build = (reportDir: string): Invocation => ({
    argv: [...call.wrappers.flat(), ...call.launcher, ...call.args],
    env: call.env,
    setup: call.setup,
    report: { file: join(reportDir, 'stdout.txt'), format: 'uvu', fromStdout: true },
  });
  return {
    runner: 'uvu',
    reportSource: 'output',
    reportDetail:
      "uvu's marks per suite, FAIL blocks and Total/Passed/Skipped lines on stdout; a passed test is known by its place in its suite, since uvu prints no name for it",
    full: build,
    subset: () => null,
    related: () => null,
  };
}
