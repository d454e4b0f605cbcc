import type { FixPlan, IterationState } from '../session/schema.js';
import type { Criticality, Failure, TestResults } from '../types.js';
import type { LoopContext } from './context.js';
import { runSuite, type SuiteOutcome } from './test-step.js';
import { needsWhatIsNotHere } from '../runners/tests-that-cannot-run.js';

export interface ConfirmInput {
  iteration: number;
  /** The affected re-test of the fix. */
  run: SuiteOutcome;
  /** The results the fix started from. */
  previous: TestResults | null;
  plan: FixPlan | null;
  flaky: ReadonlySet<string>;
  planCriticality?: Record<string, Criticality>;
  signal?: AbortSignal;
}

/** Ids of tests that fail alone but pass in the full suite (they depend on what ran before them). */
export function orderDependentTests(state: IterationState): string[] {
  return (state.order_dependent_tests as string[] | undefined) ?? [];
}

/**
 * A subset result must not drive the loop when the full suite may contradict it: when the affected re-test
 * still fails a test the plan targeted (or one known to depend on test order), the full suite runs before an
 * agent is asked again. A targeted test that fails alone but passes in the full run is recorded as
 * order-dependent. Returns the full run, or null when the affected run stands.
 */
export async function confirmWithFullSuite(
  ctx: LoopContext,
  state: IterationState,
  input: ConfirmInput,
): Promise<SuiteOutcome | null> {
  const { run } = input;
  if (!run.selection || run.noTestRan) return null;
  const known = new Set(orderDependentTests(state));
  const targeted = isTargeted(input.plan);
  const doubtful = run.results.failures.filter((f) => !f.missing && (targeted(f) || known.has(f.id)));
  // A subset run may fail where the user's command never does (a file it never runs as a test, a source file it
  // runs compiled): an error outside the tests is the agent's only when the full command fails the same way.
  const outside = run.results.errors.filter((e) => !needsWhatIsNotHere(e));
  if (doubtful.length === 0 && outside.length === 0) return null;
  ctx.emit({
    type: 'log',
    level: 'info',
    message:
      doubtful.length > 0
        ? `iteration ${input.iteration}: the affected tests still fail ${doubtful.length} test(s) the fix aimed at (${doubtful
            .slice(0, 3)
            .map((f) => f.id)
            .join(', ')}); confirming with the full suite before asking an agent again`
        : `iteration ${input.iteration}: the affected run failed outside its tests (${firstLine(outside[0]!.message)}); the full test command runs, and its result counts`,
  });
  const full = await runSuite(ctx, {
    scope: 'full',
    label: `iteration ${input.iteration}: full suite to confirm the re-test`,
    iteration: input.iteration,
    phase: 'retest',
    previous: input.previous,
    flaky: input.flaky,
    planCriticality: input.planCriticality,
    signal: input.signal,
  });
  if (full.noTestRan) return full;
  const failing = new Set(full.results.failures.map((f) => f.id));
  // A full run that passed nothing says nothing about order.
  const passedInFull = full.results.passed === 0 ? [] : doubtful.filter((f) => !failing.has(f.id)).map((f) => f.id);
  const found = passedInFull.filter((id) => !known.has(id));
  if (found.length > 0) {
    state.order_dependent_tests = [...known, ...found];
    ctx.emit({
      type: 'log',
      level: 'warn',
      message: `order-dependent test(s): ${found.join(', ')} fail when run alone but pass in the full suite; the full suite's result counts`,
    });
  }
  return full;
}

function firstLine(text: string): string {
  const line = text.split('\n')[0]!.trim();
  return line.length > 160 ? `${line.slice(0, 160)}...` : line;
}

/** Does a failure belong to the tests the plan names as the ones its fix makes pass (affected_tests)? */
function isTargeted(plan: FixPlan | null): (failure: Failure) => boolean {
  const named = (plan?.affected_tests ?? []).map((entry) => entry.trim()).filter((entry) => entry.length > 0);
  return (failure) =>
    named.some(
      (entry) =>
        entry === failure.id ||
        failure.id.endsWith(entry) ||
        entry.endsWith(failure.id) ||
        entry === failure.name ||
        (failure.name.length >= 3 && entry.endsWith(failure.name)),
    );
}
