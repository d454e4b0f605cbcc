import { existsSync, readFileSync } from 'node:fs';
import { runCommand } from '../process/run-command.js';
import type { NormalizedResult, TestCase } from '../types.js';
import type { RunnerCommands } from './invocation.js';

/**
 * The tests a run that stopped early never reached (cargo at its first failing target: the later targets and
 * the doc tests), asked of the runner by listing every test without running any. Each is "not run", a failure
 * that says why, so the run that stopped counts them as a later run would, never leaving them out of the total.
 * Empty where the runner cannot list, or the listing fails.
 */
export async function testsNotRun(
  commands: RunnerCommands,
  result: NormalizedResult,
  reportDir: string,
  options: { cwd: string; env: Record<string, string | undefined>; timeoutMs: number },
): Promise<TestCase[]> {
  if (!commands.listAll || !commands.readList || !result.stopped) return [];
  const listing = commands.listAll(reportDir);
  const stdoutFile = `${reportDir}/listed-tests.out`;
  const run = await runCommand(listing.argv, {
    cwd: options.cwd,
    env: { ...options.env, ...listing.env },
    preferLocal: true,
    timeoutMs: options.timeoutMs,
    stdoutFile,
  });
  if (run.exitCode !== 0 || !existsSync(stdoutFile)) return [];
  const reported = new Set(result.tests.map((test) => test.id));
  const message = `not run: ${result.stopped}`;
  return commands
    .readList(readFileSync(stdoutFile, 'utf8'))
    .filter((id) => !reported.has(id))
    .map((id) => ({ id, name: id, status: 'failed' as const, message }));
}
