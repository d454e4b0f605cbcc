import { rm } from 'node:fs/promises';
import { writeTextAtomic } from '../session/atomic.js';
import { readBoard } from './discoveries.js';
import { runDocumentTask } from './role-document.js';
import { runExecutor, type ExecutorOutcome } from './role-executor.js';
import { runGenerator } from './role-generator.js';
import { updateGcState, readGcState } from './session.js';
import { inTaskWorktree } from './task-worktree.js';
import type { TeamContext } from './team-context.js';
import { listCell, toCsv, TASK_COLUMNS, type TeamTask } from './tasks-csv.js';

/** Runs `jobs` with at most `limit` at a time, in order of start. */
async function pool<T>(
  items: readonly T[],
  limit: number,
  job: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      await job(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

function emitTask(ctx: TeamContext, t: TeamTask, detail?: string): void {
  ctx.emit({
    type: 'team-task',
    id: t.id,
    role: t.role,
    layer: t.layer,
    wave: Number(t.wave),
    status: t.status,
    ...(detail ? { detail } : {}),
  });
}

async function transition(ctx: TeamContext, t: TeamTask, fields: Partial<TeamTask>, detail?: string): Promise<void> {
  Object.assign(t, fields);
  await ctx.save();
  emitTask(ctx, t, detail);
}

/** A dependency that failed or was skipped skips its dependents, with the reason. */
function blockedBy(ctx: TeamContext, t: TeamTask): string | null {
  for (const d of listCell(t.deps)) {
    const dep = ctx.tasks.find((x) => x.id === d);
    if (dep && (dep.status === 'failed' || dep.status === 'skipped'))
      return `dependency ${d} ${dep.status}${dep.error ? `: ${dep.error}` : ''}`.slice(0, 300);
  }
  return null;
}

/** The wave's input file: its tasks with the findings of their context_from tasks in `prev_context`. */
async function writeWaveCsv(ctx: TeamContext, wave: number, tasks: readonly TeamTask[]): Promise<void> {
  const rows = tasks.map((t) => ({
    ...t,
    prev_context: listCell(t.context_from)
      .map((id) => ctx.tasks.find((x) => x.id === id))
      .filter(Boolean)
      .map((x) => `${x!.id}: ${x!.findings}`)
      .join('\n'),
  }));
  await writeTextAtomic(ctx.paths.wave(wave), toCsv(rows, [...TASK_COLUMNS, 'prev_context']));
}

async function runTask(ctx: TeamContext, t: TeamTask, worktree: { after: Promise<void> } | null): Promise<void> {
  await transition(ctx, t, { status: 'running', error: '' }, worktree ? 'waiting for its worktree' : undefined);
  try {
    await runRole(ctx, t, worktree);
  } catch (error) {
    // A git or file error fails this task (and so skips its dependents), not the whole session.
    const message = `${(error as Error).message.split('\n')[0]}`;
    await transition(ctx, t, { status: 'failed', error: message }, message);
  }
  const board = await readBoard(ctx.paths.discoveries);
  ctx.emit({
    type: 'team-discoveries',
    total: board.entries.length,
    malformed: board.malformed,
    latest: board.entries.slice(-5).map((d) => `${d.type} ${d.worker}: ${JSON.stringify(d.data).slice(0, 120)}`),
  });
}

/** An executor in its worktree; gc-state remembers the rounds it started from until its work is merged or dropped. */
async function executorInWorktree(
  ctx: TeamContext,
  t: TeamTask,
  rounds: number,
  after: Promise<void>,
  again: () => Promise<ExecutorOutcome>,
): Promise<ExecutorOutcome> {
  await updateGcState(ctx.paths, ctx.files, (state) => (state.started = { ...state.started, [t.layer]: rounds }));
  const r = await inTaskWorktree(ctx, t, after, {
    work: (cwd) => runExecutor(ctx, t, cwd),
    again,
    say: (text) => emitTask(ctx, t, text),
  });
  // Stopped midway, the mark stays for --continue; otherwise the rounds counted are the ones that landed.
  if (!ctx.signal.aborted) await updateGcState(ctx.paths, ctx.files, (state) => delete state.started?.[t.layer]);
  return r;
}

async function runRole(ctx: TeamContext, t: TeamTask, worktree: { after: Promise<void> } | null): Promise<void> {
  let fields: Partial<TeamTask>;
  let detail: string | undefined;
  const say = (text: string) => emitTask(ctx, t, text);
  if (t.role === 'strategist' || t.role === 'analyst') {
    const r = await runDocumentTask(ctx, t);
    fields = r.ok ? { status: 'completed', findings: r.findings } : { status: 'failed', error: r.error };
    detail = r.ok ? (t.role === 'strategist' ? 'strategy/test-strategy.md' : 'analysis/quality-report.md') : r.error;
  } else if (t.role === 'generator') {
    const onMain = () => runGenerator(ctx, t, ctx.root);
    const r = worktree
      ? await inTaskWorktree(ctx, t, worktree.after, { work: (cwd) => runGenerator(ctx, t, cwd), again: onMain, say })
      : await ctx.mainTree.run(onMain);
    fields = r.ok
      ? { status: 'completed', findings: r.findings, test_files: r.files.join(';') }
      : { status: 'failed', error: r.error };
    detail = r.ok
      ? `${r.files.length} test file(s): ${r.files.join(', ')}${r.unavailable.length ? `; L0 could not run ${r.unavailable.join(', ')}` : ''}`
      : r.error;
  } else {
    // A re-run on the merged tree starts the layer's GC rounds over: the worktree's rounds were not merged.
    const rounds = (await readGcState(ctx.paths)).rounds[t.layer] ?? 0;
    const again = async () => {
      await updateGcState(ctx.paths, ctx.files, (state) => (state.rounds[t.layer] = rounds));
      return runExecutor(ctx, t, ctx.root);
    };
    const r = worktree
      ? await executorInWorktree(ctx, t, rounds, worktree.after, again)
      : await ctx.mainTree.run(() => runExecutor(ctx, t, ctx.root));
    fields = r.ok
      ? {
          status: 'completed',
          findings: r.findings,
          pass_rate: String(r.run.passRate),
          coverage_achieved: r.run.coverage === null ? '' : String(r.run.coverage),
          test_files: r.files.join(';'),
        }
      : { status: 'failed', error: r.error };
    detail = r.ok
      ? `pass rate ${r.run.passRate}, coverage ${r.run.coverage ?? '-'}%, ${r.rounds} GC round(s)${r.warning ? ` — ${r.warning}` : ''}`
      : r.error;
  }
  // Stopped midway: the task stays to do, and --continue runs it again.
  if (ctx.signal.aborted) return transition(ctx, t, { status: 'pending' }, 'interrupted');
  await transition(ctx, t, fields, detail);
}

/** Runs every wave in order; a wave's tasks run concurrently up to the concurrency limit. */
export async function runWaves(ctx: TeamContext): Promise<void> {
  const waves = Math.max(...ctx.tasks.map((t) => Number(t.wave)));
  for (let w = 1; w <= waves && !ctx.signal.aborted; w++) {
    const waveTasks = ctx.tasks.filter((t) => Number(t.wave) === w);
    for (const t of waveTasks.filter((x) => x.status === 'pending' || x.status === 'running')) {
      const why = blockedBy(ctx, t);
      if (why) await transition(ctx, t, { status: 'skipped', error: why }, why);
    }
    for (const t of waveTasks.filter((x) => x.status === 'running')) t.status = 'pending';
    const todo = waveTasks.filter((t) => t.status === 'pending');
    if (todo.length === 0) continue;
    await writeWaveCsv(ctx, w, todo);
    ctx.emit({ type: 'team-wave', wave: w, waves, status: 'running', tasks: todo.map((t) => t.id) });
    // Generators write tests and executors commit fixes and GC rounds: when several share a wave, each gets a worktree.
    const writers = todo.filter((t) => t.role === 'generator' || t.role === 'executor');
    const isolate = writers.length > 1 && ctx.options.concurrency > 1;
    const merged = writers.map(() => {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => (resolve = r));
      return { promise, resolve };
    });
    await pool(todo, ctx.options.concurrency, async (t) => {
      const k = writers.indexOf(t);
      try {
        await runTask(
          ctx,
          t,
          isolate && k >= 0 ? { after: k === 0 ? Promise.resolve() : merged[k - 1]!.promise } : null,
        );
      } finally {
        if (k >= 0) merged[k]!.resolve();
      }
    });
    if (ctx.signal.aborted) break;
    await rm(ctx.paths.wave(w), { force: true });
    const count = (s: string) => waveTasks.filter((t) => t.status === s).length;
    ctx.emit({
      type: 'team-wave',
      wave: w,
      waves,
      status: 'done',
      tasks: waveTasks.map((t) => t.id),
      detail: `${count('completed')} completed, ${count('failed')} failed, ${count('skipped')} skipped`,
    });
  }
}
