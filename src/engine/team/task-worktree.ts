import { existsSync } from 'node:fs';
import { cp, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { activeDir } from '../session/paths.js';
import { appendDiscoveries } from './discoveries.js';
import type { TeamContext } from './team-context.js';
import type { TeamTask } from './tasks-csv.js';
import { describeSetup, prepareWorktree } from './worktree-setup.js';
import { addWorktree, cherryPick, commitsSince, headOf, removeWorktree } from './worktrees.js';

/** How a task that runs in its own worktree reports: its transitions go through the wave engine's `say`. */
export interface WorktreeRun<T> {
  /** The task's work in `cwd`; what it commits there is brought back. */
  work: (cwd: string) => Promise<T>;
  /** The task again on the merged main tree, after its commits conflicted with an earlier task's. */
  again: () => Promise<T>;
  say: (detail: string) => void;
}

/** The fix loop's sessions an executor ran in its worktree stay readable in the main tree once the worktree is gone. */
async function keepLoopSessions(dir: string, root: string): Promise<void> {
  const from = activeDir(dir);
  for (const name of await readdir(from).catch(() => [] as string[])) {
    const to = join(activeDir(root), name);
    if (!existsSync(to)) await cp(join(from, name), to, { recursive: true }).catch(() => undefined);
  }
}

/**
 * A task that writes files while others of its wave do: it works in its own worktree (with the main tree's
 * dependencies linked in), its commits are brought onto the main tree in task order (`after` resolves once the
 * tasks before it merged), and on a conflict the task runs again on the merged tree.
 */
export async function inTaskWorktree<T extends { ok: boolean }>(
  ctx: TeamContext,
  t: TeamTask,
  after: Promise<void>,
  run: WorktreeRun<T>,
): Promise<T> {
  const dir = join(ctx.paths.worktrees, t.id);
  await ctx.mainTree.run(() => addWorktree(ctx.root, dir));
  try {
    const setup = await ctx.mainTree.run(() => prepareWorktree(ctx.root, dir));
    const described = describeSetup(setup);
    if (setup.missing.length) {
      const entries = setup.missing.map((m) => ({
        type: 'check_skipped' as const,
        data: { pattern: m.split(' ')[0], description: `task worktree: ${m}`, where: 'task worktree' },
      }));
      await ctx.files.run(() => appendDiscoveries(ctx.paths.discoveries, t.id, entries));
    }
    run.say(`in its own worktree${described ? ` (${described})` : ''}`);
    const base = await headOf(dir);
    const outcome = await run.work(dir);
    const commits = await commitsSince(dir, base);
    await after;
    if (!outcome.ok || ctx.signal.aborted) return outcome;
    if (await ctx.mainTree.run(() => cherryPick(ctx.root, commits))) return outcome;
    run.say(
      `its ${t.role === 'generator' ? 'tests' : 'commits'} conflict with an earlier task of the wave: running it again on the merged tree`,
    );
    return await ctx.mainTree.run(run.again);
  } finally {
    await keepLoopSessions(dir, ctx.root);
    await ctx.mainTree.run(() => removeWorktree(ctx.root, dir));
  }
}
