import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { activeDir, SESSION_PREFIX, sessionPaths } from '../engine/session/paths.js';
import { lockHolderAlive } from '../engine/session/lock.js';
import { readIterationState } from '../engine/session/state-file.js';
import { readGenState } from '../engine/gen/state.js';

/** One session of the repository as `status` lists it beside the one it details. */
export interface ListedSession {
  id: string;
  status: string;
  /** A process drives it now (its lock is held by a live process). */
  running: boolean;
  /** Its worktree's branch while the worktree is there, or where its fixes wait. */
  branch?: string;
  note?: string;
}

/** The sessions of a repository that run now, keep a worktree, or have fixes waiting on their branch. */
export async function sessionsInProgress(root: string): Promise<ListedSession[]> {
  const names = (await readdir(activeDir(root)).catch(() => [] as string[])).filter((n) =>
    n.startsWith(SESSION_PREFIX),
  );
  const listed: ListedSession[] = [];
  for (const id of names.sort()) {
    const paths = sessionPaths(root, id);
    const read = await readIterationState(paths.iterationState);
    // A gen session keeps its worktree in its own state (its fix loop, if begun, works in that worktree).
    const gen = await readGenState(paths.dir).catch(() => null);
    if (!read.ok && !gen) continue;
    const running = await lockHolderAlive(paths.lock);
    const wt = gen?.worktree ?? (read.ok ? read.state.worktree : undefined);
    const status = gen
      ? gen.step === 'fix' && read.ok
        ? read.state.status
        : gen.plan_only && gen.phases_done.includes('tasks')
          ? 'gen planned (--plan-only)'
          : `gen ${gen.phases_done.includes('tasks') ? gen.step : 'planning'}`
      : read.ok
        ? read.state.status
        : 'unknown';
    const waiting = wt?.handback && (wt.handback.status === 'waiting' || wt.handback.status === 'conflict');
    if (!running && !(wt && existsSync(wt.dir)) && !waiting) continue;
    listed.push({
      id,
      status,
      running,
      ...(wt ? { branch: wt.branch } : {}),
      ...(waiting ? { note: `fixes waiting: ${wt.handback!.command}` } : {}),
    });
  }
  return listed;
}
