import { join } from 'node:path';
import type { RunnerCall } from '../analyse-command.js';
import type { Invocation, RunnerCommands } from '../invocation.js';
import { readLibtestList } from '../libtest-output.js';

/**
 * `cargo test`: stable cargo has no machine-readable test report, so fixcycle reads libtest's own lines
 * (`test name ... ok`) from stdout and checks them against its `test result:` summary lines.
 */
export function cargoCommands(call: RunnerCall): RunnerCommands {
  const dash = call.args.indexOf('--');
  const cargoArgs = dash === -1 ? call.args : call.args.slice(0, dash);
  const harnessArgs = dash === -1 ? [] : call.args.slice(dash + 1);
  const build = (reportDir: string, argv: string[]): Invocation => ({
    argv: [...call.launcher, ...argv],
    env: call.env,
    setup: call.setup,
    report: { file: join(reportDir, 'cargo-test.out'), format: 'libtest', fromStdout: true },
  });
  return {
    runner: 'cargo',
    reportSource: 'output',
    reportDetail: "libtest's per-test lines and `test result:` summaries on stdout (cargo test has no report file)",
    full: (dir) => build(dir, [...cargoArgs, ...(harnessArgs.length > 0 ? ['--', ...harnessArgs] : [])]),
    subset: (dir, { names }) =>
      names.length === 0 ? null : build(dir, [...cargoArgs, '--', ...harnessArgs, '--exact', ...names]),
    related: () => null,
    // Every target listed, the ones after a failing target too: libtest's --list runs no test.
    listAll: (dir) => build(dir, [...cargoArgs, '--no-fail-fast', '--', ...harnessArgs, '--list']),
    readList: readLibtestList,
  };
}
