import { brokenByFix } from '../decisions/regression.js';
import { rerunFailures } from '../runners/rerun.js';
import type { IterationState } from '../session/schema.js';
import type { Failure, TestResults } from '../types.js';
import { orderDependentTests } from './confirm-step.js';
import type { LoopContext } from './context.js';
import { recordTestArtifacts } from './test-artifacts.js';

/**
 * The baseline tests that pass before a fix is re-tested: read before the re-test, whose full run may add tests
 * seen for the first time (those never passed "before").
 */
export async function passingBefore(ctx: LoopContext, previous: TestResults | null): Promise<Set<string>> {
  if (!previous) return new Set();
  const failing = new Set([...previous.failures, ...(previous.own_failures ?? [])].map((f) => f.id));
  const baseline = (await ctx.session.readBaseline()) ?? [];
  return new Set(baseline.filter((t) => !t.skipped && !failing.has(t.id)).map((t) => t.id));
}

/**
 * The tests a fix broke: baseline tests that passed before it and fail after it, each re-run (`flakyReruns` times)
 * first. One that passes on a re-run is flaky, recorded as such in the state, and not held against the fix.
 */
export async function testsBrokenByFix(
  ctx: LoopContext,
  state: IterationState,
  passedBefore: ReadonlySet<string>,
  after: TestResults,
  signal: AbortSignal,
): Promise<Failure[]> {
  const flaky = new Set((state.flaky_tests as string[] | undefined) ?? []);
  const excused = new Set([...flaky, ...orderDependentTests(state)]);
  const candidates = brokenByFix({ passedBefore, failuresAfter: after.failures, excused });
  const rerun = candidates.filter((f) => !f.missing);
  if (rerun.length === 0 || ctx.options.flakyReruns === 0 || !ctx.runner.runSubset) return candidates;
  ctx.emit({ type: 'output-reset', label: `re-running ${rerun.length} test(s) the fix may have broken` });
  const passed = await rerunFailures(
    ctx.runner,
    ctx.repo.root,
    rerun,
    ctx.options.flakyReruns,
    ctx.options.testTimeoutMs,
    {
      onLines: (lines) => ctx.emit({ type: 'output', lines }),
      signal,
    },
  );
  await recordTestArtifacts(ctx);
  if (passed.length === 0) return candidates;
  state.flaky_tests = [...flaky, ...passed];
  ctx.emit({
    type: 'log',
    level: 'info',
    message: `${passed.length} test(s) that failed after the fix passed on re-run: flaky, not broken by it (${passed.slice(0, 5).join(', ')})`,
  });
  const isFlaky = new Set(passed);
  return candidates.filter((f) => !isFlaky.has(f.id));
}

/** What the next analysis is told about the tests a rolled-back fix broke: each with how it failed. */
export function brokenTestsSetback(broken: readonly Failure[]): string {
  const lines = broken.slice(0, 10).map((f) => `- ${f.id}: ${firstLine(f.message)}`);
  if (broken.length > 10) lines.push(`- and ${broken.length - 10} more`);
  return `It broke ${broken.length} test(s) that passed before it; the next fix must keep them passing:\n${lines.join('\n')}`;
}

function firstLine(message: string): string {
  const line = message.split('\n').find((l) => l.trim()) ?? 'failed';
  return line.length > 200 ? `${line.slice(0, 200)}...` : line.trim();
}
