import { writeJsonAtomic } from '../session/atomic.js';
import { coverageLines, readBefore } from './changed-coverage.js';
import { withCoverage } from './coverage/measure.js';
import { node, type GenContext } from './gen-context.js';
import type { MutationReport } from './mutation/mutation-report.js';
import { genPaths } from './paths.js';
import type { ContextPackage } from './phase-context.js';
import { updateTask } from './phase-tasks.js';

/**
 * The end of the quality gate: the changed lines' coverage with the kept tests (the full suite), the quality
 * report, and the next step: one more generate round aimed at what is left (uncovered lines, a file that did not
 * collect) while rounds remain, else the commit.
 */
export async function finishQuality(
  ctx: GenContext,
  pkg: ContextPackage,
  mutants: MutationReport,
  opts: { measured: boolean; note?: string; uncollected: number },
): Promise<void> {
  const { state, options } = ctx;
  const dir = ctx.session.paths.dir;
  const round = state.generate_round;
  const rejected = state.rejected.filter((r) => r.gate === 'IMPL-001.5');
  let gaps: string[] = [];
  if (opts.measured) {
    node(ctx, 'IMPL-001.5', 'running', 'coverage of the changed lines with the kept tests (full suite)');
    const { coverage } = await withCoverage(
      ctx.runner,
      ctx.repo.root,
      pkg.changed_files.map((f) => f.file),
      (runner) =>
        runner.run({ cwd: ctx.repo.root, scope: 'full', timeoutMs: options.testTimeoutMs, signal: ctx.signal }),
    );
    const measured = coverageLines(pkg, await readBefore(dir), coverage, ctx);
    gaps = measured.gaps;
    ctx.emit({ type: 'gen-coverage', files: measured.lines, measured: true });
    await writeJsonAtomic(genPaths(dir).qualityReport, {
      round,
      kept: state.kept,
      rejected,
      coverage: measured.lines,
      gaps,
      mutation: mutants,
    });
  } else
    await writeJsonAtomic(genPaths(dir).qualityReport, {
      round,
      kept: state.kept,
      rejected,
      coverage: null,
      note: opts.note,
      mutation: mutants,
    });
  const dropped = rejected.filter((r) => r.round === round);
  await updateTask(dir, 'IMPL-001.5', (t) => {
    t.status = 'completed';
    Object.assign(t.context, {
      round,
      kept: state.kept.map((k) => `${k.test}: ${k.note}`),
      rejected: dropped.map((r) => `${r.test}: ${r.reason}`),
      coverage_gaps: gaps,
      ...(opts.note ? { coverage: opts.note } : {}),
    });
  });
  const findings = dropped.map((r) => `${r.test}: ${r.reason}`);
  // A file that broke collection goes back to the generator with the runner's error, as uncovered lines do.
  if ((gaps.length > 0 || opts.uncollected > 0) && state.coverage_rounds < options.maxCoverageRounds) {
    const why = gaps.length ? 'below the coverage targets' : 'a file did not collect';
    node(
      ctx,
      'IMPL-001.5',
      'failed',
      `${state.kept.length} kept, ${dropped.length} dropped; ${why}: one more generate round`,
      { round, findings: [...findings, ...gaps] },
    );
    // The round's prompt says why tests were rejected, not only which lines are left: the generator can avoid it.
    Object.assign(state, {
      coverage_rounds: state.coverage_rounds + 1,
      feedback: [...gaps, ...findings.map((f) => `rejected: ${f}`)],
      feedback_kind: 'coverage',
      step: 'generate',
      l0_rounds: 0,
    });
  } else {
    const left = gaps.length
      ? `; still below target: ${gaps.join('; ')}`
      : opts.measured
        ? '; coverage targets met'
        : `; ${opts.note}`;
    node(ctx, 'IMPL-001.5', 'done', `${state.kept.length} kept, ${dropped.length} dropped${left}`, {
      round,
      findings,
    });
    state.step = 'commit';
  }
  await ctx.save();
}
