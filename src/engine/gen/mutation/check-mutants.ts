import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CommandTestRunner } from '../../runners/test-runner.js';
import type { TestRunner } from '../../runners/runner.js';
import { pythonOf } from '../coverage/python.js';
import { node, type GenContext } from '../gen-context.js';
import type { ContextPackage } from '../phase-context.js';
import { makeMutants, mutationLanguage } from './make-mutants.js';
import { runMutants, type MutantOutcome, type MutantRunOptions, type MutatedModule } from './run-mutants.js';

/**
 * Mutant runs in one gate, in all. Each is a process of the project's runner, about the cost of one bare run of
 * its suite, and the gate's budget is gen_gate_ratio <= 2.0 in the bench (the gate within 10 bare runs, its own
 * stability and coverage runs taking 5 to 7): on the bench project (bytes, mocha) 4 runs cost 2.8 s, ratio 1.21;
 * 8 cost 9.6 s, ratio 2.73. The runs are taken at even steps through the mutants, so they span the change.
 */
export const MAX_MUTANT_RUNS = 4;

/** Where a gen session keeps the original of a module while a mutant is in its place. */
export const mutantJournal = (sessionDir: string): string => join(sessionDir, '.process', 'mutant-in-place.json');

/** The Python that runs the project's tests (its `ast` makes the mutants of a Python module). */
export function pythonFor(runner: TestRunner): string {
  return runner instanceof CommandTestRunner ? pythonOf(runner.commands.full(tmpdir()).argv) : 'python3';
}

/** The mutation check's raw result: the mutants made per module, and each run's outcome. */
export interface MutationRuns {
  made: Map<string, number>;
  /** The mutants made, per module (those not run yet can still judge a test on its own lines). */
  modules: MutatedModule[];
  outcomes: MutantOutcome[];
  note?: string;
}

/**
 * "Checks something" proven by running it: mutants of the change's changed lines, and the new tests (those passing
 * every stability run) with the existing tests reaching each module run against each, within the gate's budget.
 */
export async function checkMutants(
  ctx: GenContext,
  pkg: ContextPackage,
  newTests: readonly { id: string; file: string }[],
  reach?: MutantRunOptions['reach'],
  cleanMs?: number,
): Promise<MutationRuns> {
  const made = new Map<string, number>();
  if (newTests.length === 0) return { made, modules: [], outcomes: [], note: 'no new test passing every run to judge' };
  const modules: MutatedModule[] = [];
  const python = pythonFor(ctx.runner);
  const failures: string[] = [];
  for (const f of pkg.changed_files) {
    if (!mutationLanguage(f.file)) continue;
    try {
      // Made where a new test runs (a mutant elsewhere no new test can kill), when the coverage runs tell.
      const reached = (line: number): boolean => reach?.newTests(`${f.file}:${line}`) !== false;
      const fresh = (line: number): boolean => reach?.existing(`${f.file}:${line}`) === false;
      const mutants = await makeMutants(ctx.repo.root, f, python, reached, fresh);
      made.set(f.file, mutants.length);
      if (mutants.length > 0) modules.push({ file: f.file, mutants, existing: f.tests_reaching });
    } catch (error) {
      failures.push(`${f.file}: ${(error as Error).message}`);
    }
  }
  if (modules.length === 0)
    return {
      made,
      modules,
      outcomes: [],
      note: failures.length
        ? `no mutant made (${failures.join('; ')})`
        : 'no changed line fixcycle can mutate (a comparison, a condition, a constant, a returned value, a statement)',
    };
  const outcomes = await runMutants({
    runner: ctx.runner,
    root: ctx.repo.root,
    signal: ctx.signal,
    timeoutMs: ctx.options.testTimeoutMs,
    newTests: [...newTests],
    modules,
    passingBefore: pkg.suite_before ? new Set(pkg.suite_before.passing) : null,
    maxRuns: MAX_MUTANT_RUNS,
    ...(cleanMs ? { cleanMs } : {}),
    journal: mutantJournal(ctx.session.paths.dir),
    ...(reach ? { reach } : {}),
    onRun: (m, i, n) =>
      node(ctx, 'IMPL-001.5', 'running', `mutant ${i + 1} of ${n}: ${m.file}:${m.line} ${m.description}`),
  });
  return { made, modules, outcomes, ...(failures.length ? { note: failures.join('; ') } : {}) };
}
