import { rerunFailures } from '../runners/rerun.js';
import type { IterationState } from '../session/schema.js';
import type { TestResults } from '../types.js';
import type { LoopContext } from './context.js';
import { recordTestArtifacts } from './test-artifacts.js';

/**
 * Re-runs the failures not checked before (`flakyReruns` times) before an agent call is spent on them.
 * Records what it checked and what passed in the state; returns the results with flaky failures made
 * low criticality, or null when nothing new turned out flaky.
 */
export async function spotFlakyTests(
  ctx: LoopContext,
  state: IterationState,
  results: TestResults,
  signal: AbortSignal,
): Promise<TestResults | null> {
  const times = ctx.options.flakyReruns;
  const checked = new Set((state.rerun_checked as string[] | undefined) ?? []);
  const flaky = new Set((state.flaky_tests as string[] | undefined) ?? []);
  const targets = results.failures.filter((f) => !f.missing && !checked.has(f.id) && !flaky.has(f.id));
  if (times === 0 || targets.length === 0 || !ctx.runner.runSubset) return null;
  ctx.emit({ type: 'output-reset', label: `re-running ${targets.length} failing test(s) to spot flaky ones` });
  const found = await rerunFailures(ctx.runner, ctx.repo.root, targets, times, ctx.options.testTimeoutMs, {
    onLines: (lines) => ctx.emit({ type: 'output', lines }),
    signal,
  });
  await recordTestArtifacts(ctx);
  if (signal.aborted) return null;
  state.rerun_checked = [...checked, ...targets.map((f) => f.id)];
  if (found.length === 0) return null;
  state.flaky_tests = [...flaky, ...found];
  const isFlaky = new Set(found);
  ctx.emit({
    type: 'log',
    level: 'info',
    message: `${found.length} flaky test(s) passed on re-run and are now low criticality: ${found.slice(0, 5).join(', ')}`,
  });
  return {
    ...results,
    failures: results.failures.map((f) =>
      isFlaky.has(f.id) ? { ...f, criticality: 'low', criticality_source: 'flaky' } : f,
    ),
  };
}
