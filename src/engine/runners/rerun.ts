import type { RunTestsOptions, TestRunner } from './runner.js';

/** A failing test to re-run. */
export interface RerunTarget {
  id: string;
  name: string;
  file?: string;
}

/**
 * Re-runs failing tests up to `times` times with the runner's subset command, before an agent is spent on them.
 * Returns the ids that passed on a re-run: flaky tests. A runner that cannot run a subset re-runs nothing.
 */
export async function rerunFailures(
  runner: TestRunner,
  cwd: string,
  failures: RerunTarget[],
  times: number,
  timeoutMs: number,
  stream: Pick<RunTestsOptions, 'onLines' | 'logFile' | 'signal'> = {},
): Promise<string[]> {
  const flaky: string[] = [];
  let remaining = failures;
  for (let attempt = 0; attempt < times && remaining.length > 0 && runner.runSubset; attempt++) {
    const files = [...new Set(remaining.flatMap((failure) => (failure.file ? [failure.file] : [])))];
    const names = [...new Set(remaining.map((failure) => leafName(failure.name)))];
    const run = await runner.runSubset({ cwd, timeoutMs, ...stream }, { files, names });
    if (!run || run.timedOut) break;
    const passed = new Set(run.result.tests.filter((test) => test.status === 'passed').map((test) => test.id));
    flaky.push(...remaining.filter((failure) => passed.has(failure.id)).map((failure) => failure.id));
    remaining = remaining.filter((failure) => !passed.has(failure.id));
  }
  return flaky;
}

/** The test's own name, without the suites a report may have joined in front (`suite > name`). */
function leafName(name: string): string {
  const parts = name.split(' > ');
  return parts[parts.length - 1]!;
}
