import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { applyDrops } from './apply-drops.js';
import type { GenContext } from './gen-context.js';
import { judgeCoverage } from './judge-coverage.js';
import { judgeMutants } from './judge-mutants.js';
import { judgeRuns } from './judge-runs.js';
import { checkMutants } from './mutation/check-mutants.js';
import { mutantReach } from './mutation/mutant-reach.js';
import { ownLineMutants } from './mutation/own-line-mutants.js';
import { mutationReport } from './mutation/mutation-report.js';
import { readContextPackage } from './phase-analysis.js';
import { observe, type Observed } from './quality-observe.js';
import { finishQuality } from './quality-finish.js';
import { verdicts } from './quality-verdicts.js';
import { isTestFileProper } from './source-files.js';
import { staticHints } from './static-hints.js';

/**
 * IMPL-001.5, the quality gate: each new test judged by what the runner says of it. Its stability runs (not
 * collected, flaky, skipped: dropped; failing every run: kept for the fix loop), its coverage runs, and for a test
 * L0 doubts or one adding no coverage and no check of its own, the mutant runs of the changed lines (killed none:
 * it checks nothing, dropped). Every drop is verified by a run of its file; then the changed lines' coverage
 * decides whether one more generate round is worth it.
 */
export async function qualityGate(ctx: GenContext): Promise<void> {
  const { state, options } = ctx;
  const root = ctx.repo.root;
  const pkg = await readContextPackage(ctx.session.paths.dir);
  const files = state.generated_files.filter((f) => isTestFileProper(f) && existsSync(join(root, f)));
  // L0's static findings on a test are hints: each drop rests on what the runner said (decide-drop.ts). Read before
  // the runs, which take a file that does not collect out of the tree.
  const hintsOf = files.length > 0 ? await staticHints(root, files) : () => [];
  // No test file left (every one rejected): nothing to run, the gate only measures coverage.
  const { tests, uncollected, slowestMs } =
    files.length > 0
      ? await observe(ctx, files, options.stabilityRuns)
      : { tests: new Map<string, Observed>(), uncollected: [], slowestMs: 0 };
  if (ctx.signal.aborted) return;
  const v = verdicts(state, options.stabilityRuns, hintsOf);
  const stable = await judgeRuns(root, tests, uncollected, v);
  for (const file of files.filter(
    (f) => !uncollected.some((u) => u.file === f) && ![...tests.values()].some((t) => t.file === f),
  ))
    v.reject({ id: file, file }, 'not collected: run alone, the runner reported no test of it');
  const coverage = await judgeCoverage(ctx, pkg, stable, tests, v);
  // Mutants of the changed lines, run against the new tests passing every run.
  const mutation = await checkMutants(
    ctx,
    pkg,
    stable.filter((t) => t.statuses[0] === 'passed'),
    mutantReach(coverage.reachedByNew, coverage.before),
    slowestMs,
  );
  if (ctx.signal.aborted) return;
  // The doubted tests those runs would drop meet mutants of the changed lines they run themselves.
  const outcomes = [...mutation.outcomes, ...(await ownLineMutants(ctx, coverage.waiting, mutation, v, slowestMs))];
  if (ctx.signal.aborted) return;
  state.redundant_kept = judgeMutants(coverage.waiting, outcomes, v, options.keepRedundant);
  state.kept = v.kept;
  if (coverage.note) state.coverage_note = coverage.note;
  // Saved before the dropped tests leave their files: a stop in between keeps why they were dropped.
  await ctx.save();
  await applyDrops(ctx, files, v.dropped, tests);
  await ctx.save();
  const mutants = mutationReport(mutation.made, outcomes, new Set(state.kept.map((k) => k.test)), mutation.note);
  ctx.emit({ type: 'gen-mutation', modules: mutants.modules, ...(mutants.note ? { note: mutants.note } : {}) });
  await finishQuality(ctx, pkg, mutants, {
    measured: coverage.note === undefined,
    ...(coverage.note ? { note: coverage.note } : {}),
    uncollected: uncollected.length,
  });
}
