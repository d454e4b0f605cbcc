import { changedCoverage, lineRanges } from '../gen/coverage/model.js';
import { coverageSupport, withCoverage } from '../gen/coverage/measure.js';
import { writeJsonAtomic } from '../session/atomic.js';
import { appendDiscoveries } from './discoveries.js';
import { runFixCycle } from './fix-loop.js';
import { runGenerator } from './role-generator.js';
import { readGcState, updateGcState } from './session.js';
import type { TeamContext } from './team-context.js';
import { listCell, type TeamTask } from './tasks-csv.js';

/** One run of a layer's tests with coverage. */
export interface LayerRun {
  passRate: number;
  passed: number;
  failed: number;
  coverage: number | null;
  failures: string[];
  gaps: string[];
  note?: string;
}

/** Runs `files` with coverage and measures the changed lines they execute. */
async function measure(ctx: TeamContext, cwd: string, files: string[]): Promise<LayerRun> {
  const opts = {
    cwd,
    timeoutMs: ctx.options.testTimeoutMs,
    signal: ctx.signal,
    onLines: (lines: string[]) => ctx.emit({ type: 'output', lines }),
  };
  const run = (r: typeof ctx.runner) =>
    r.runSubset ? r.runSubset(opts, { files, names: [] }) : r.run({ ...opts, scope: 'full' });
  const support = coverageSupport(ctx.runner, cwd);
  const sources = ctx.changed.map((f) => f.file);
  const measured = support.ok
    ? await withCoverage(ctx.runner, cwd, sources, run)
    : { result: await run(ctx.runner), coverage: null };
  // The tool was there when asked but measured nothing where the tests ran (coverage.py missing from that Python).
  const missing = 'missing' in measured ? measured.missing : undefined;
  const tests = measured.result?.result.tests ?? [];
  const passed = tests.filter((t) => t.status === 'passed').length;
  const failedTests = tests.filter((t) => t.status === 'failed');
  const total = passed + failedTests.length;
  let coverage: number | null = null;
  const gaps: string[] = [];
  if (measured.coverage && !missing) {
    let covered = 0;
    let all = 0;
    for (const f of ctx.changed) {
      const c = changedCoverage(measured.coverage, f.file, f.lines);
      covered += c.coveredLines;
      all += c.totalLines;
      if (c.uncovered.length)
        gaps.push(`${f.file}: ${c.lines ?? 0}% of the changed lines; uncovered lines ${lineRanges(c.uncovered)}`);
    }
    coverage = all === 0 ? null : Math.round((covered / all) * 1000) / 10;
  }
  return {
    passRate: total === 0 ? 0 : Math.round((passed / total) * 1000) / 1000,
    passed,
    failed: failedTests.length,
    coverage,
    failures: failedTests.map((t) => `${t.file ?? ''} "${t.name}": ${(t.message ?? '').split('\n')[0]}`.trim()),
    gaps,
    ...(support.ok ? (missing ? { note: missing } : {}) : { note: support.reason }),
  };
}

/** Every test file this team session generated: the fix loop may correct these. */
function allGenerated(ctx: TeamContext): string[] {
  return [...new Set(ctx.tasks.flatMap((t) => listCell(t.test_files)))];
}

export type ExecutorOutcome =
  | { ok: true; run: LayerRun; files: string[]; findings: string; rounds: number; warning?: string }
  | { ok: false; error: string };

const belowTarget = (run: LayerRun, target: number): boolean =>
  run.passRate < 0.95 || (run.coverage !== null && run.coverage < target);

/**
 * An executor task, run by fixcycle itself in `cwd` (the main tree or the task's worktree): the layer's tests with
 * coverage, then the generator-critic loop —
 * while the pass rate is under 95% or coverage under the layer's target, a generator round aimed at the failures
 * and uncovered lines and a new run, at most `maxGcRounds` rounds (counted in gc-state.json), then accepted
 * with a warning.
 */
export async function runExecutor(ctx: TeamContext, task: TeamTask, cwd: string): Promise<ExecutorOutcome> {
  const layer = task.layer;
  const target = Number(task.coverage_target || 80);
  const generator = ctx.tasks.find((t) => t.role === 'generator' && t.layer === layer);
  const files = [
    ...new Set([
      ...ctx.tasks.filter((t) => t.role === 'generator' && t.layer === layer).flatMap((t) => listCell(t.test_files)),
      ...listCell(task.test_files),
    ]),
  ];
  if (files.length === 0)
    return { ok: false, error: `no ${layer} test files to run: the ${layer} generator produced none` };
  const gc = await readGcState(ctx.paths);
  let round = gc.rounds[layer] ?? 0;
  let fixes = 0;
  /** The layer's tests with coverage; failures go to the fix cycle (fixcycle's loop), then the tests run again. */
  const execute = async (): Promise<LayerRun> => {
    const first = await measure(ctx, cwd, files);
    if (first.failed === 0 || ctx.signal.aborted || ctx.options.maxFixIterations === 0) return first;
    fixes++;
    ctx.emit({
      type: 'team-task',
      id: task.id,
      role: task.role,
      layer,
      wave: Number(task.wave),
      status: 'running',
      detail: `${first.failed} failing test(s): the fix cycle (at most ${ctx.options.maxFixIterations} iterations)`,
    });
    const loop = await runFixCycle(ctx, cwd, task.id, round, [...allGenerated(ctx), ...files]);
    ctx.emit({
      type: 'team-task',
      id: task.id,
      role: task.role,
      layer,
      wave: Number(task.wave),
      status: 'running',
      detail: `fix cycle: ${loop.outcome}: ${loop.reason}`,
    });
    if (loop.outcome === 'success' || loop.outcome === 'partial_success')
      await ctx.files.run(() =>
        appendDiscoveries(ctx.paths.discoveries, task.id, [
          { type: 'fix_applied', data: { test_file: files.join(';'), fix_type: 'fix-loop', description: loop.reason } },
        ]),
      );
    return measure(ctx, cwd, files);
  };
  let run = await execute();
  const record = async (): Promise<void> => {
    await updateGcState(ctx.paths, ctx.files, (state) => {
      state.rounds[layer] = round;
      state.coverage_history.push({
        layer,
        round,
        pass_rate: run.passRate,
        coverage: run.coverage,
        at: new Date().toISOString(),
      });
    });
    ctx.emit({ type: 'team-coverage', layer, round, passRate: run.passRate, coverage: run.coverage, target });
  };
  await record();
  while (belowTarget(run, target) && round < ctx.options.maxGcRounds && !ctx.signal.aborted && generator) {
    round++;
    await updateGcState(ctx.paths, ctx.files, (state) => (state.rounds[layer] = round));
    ctx.emit({
      type: 'team-task',
      id: task.id,
      role: task.role,
      layer,
      wave: Number(task.wave),
      status: 'running',
      detail: `GC round ${round}/${ctx.options.maxGcRounds}: pass rate ${(run.passRate * 100).toFixed(1)}%, coverage ${run.coverage ?? '-'}% (target ${target}%): a generator round at the failures and uncovered lines`,
    });
    const aimed = [...run.failures.map((f) => `failing: ${f}`), ...run.gaps.map((g) => `uncovered: ${g}`)];
    const gen = await runGenerator(ctx, generator, cwd, {
      feedback: aimed,
      feedbackTitle: `GC round ${round}: make these tests pass and cover these lines (target ${target}% of the changed lines)`,
      gcRound: round,
    });
    if (gen.ok) files.push(...gen.files.filter((f) => !files.includes(f)));
    else ctx.emit({ type: 'log', level: 'warn', message: `${task.id} GC round ${round}: ${gen.error}` });
    run = await execute();
    await record();
  }
  const met = !belowTarget(run, target);
  const warning = met
    ? undefined
    : `${layer} accepted below target after ${round} GC round(s): pass rate ${(run.passRate * 100).toFixed(1)}%, coverage ${run.coverage ?? '-'}% (target ${target}%)`;
  ctx.emit({
    type: 'team-coverage',
    layer,
    round,
    passRate: run.passRate,
    coverage: run.coverage,
    target,
    accepted: met ? 'met' : 'warning',
  });
  if (warning) {
    await updateGcState(ctx.paths, ctx.files, (state) => state.warnings.push(warning));
  }
  const found = [
    ...run.failures.map((f) => ({
      type: 'defect_found' as const,
      data: { file: f.split(' ')[0] ?? '', line: 0, pattern: 'failing_test', description: f },
    })),
    ...run.gaps.map((g) => ({
      type: 'coverage_gap' as const,
      data: { file: g.split(':')[0] ?? '', current: run.coverage, target, gap: g },
    })),
  ];
  await ctx.files.run(() => appendDiscoveries(ctx.paths.discoveries, task.id, found));
  await writeJsonAtomic(ctx.paths.run(layer), {
    layer,
    task: task.id,
    files,
    pass_rate: run.passRate,
    passed: run.passed,
    failed: run.failed,
    coverage: run.coverage,
    target,
    gc_rounds: round,
    failures: run.failures,
    gaps: run.gaps,
    warning: warning ?? null,
    note: run.note ?? null,
  });
  await writeJsonAtomic(ctx.paths.interactive(task.id), {
    task_id: task.id,
    status: 'completed',
    pass_rate: run.passRate,
    coverage: run.coverage,
    gc_rounds: round,
    warning: warning ?? null,
    timestamp: new Date().toISOString(),
  });
  const findings = `${layer}: ${run.passed} passed, ${run.failed} failed (pass rate ${run.passRate}); coverage of the changed lines ${run.coverage ?? 'not measured'}${run.coverage !== null ? '%' : ''} (target ${target}%) after ${round} GC round(s)${fixes ? ` and ${fixes} fix cycle(s)` : ''}${run.failures.length ? `; failing: ${run.failures.slice(0, 3).join('; ')}` : ''}${warning ? `; warning: ${warning}` : ''}`;
  return {
    ok: true,
    run,
    files,
    findings: findings.length > 500 ? `${findings.slice(0, 497)}...` : findings,
    rounds: round,
    ...(warning ? { warning } : {}),
  };
}
