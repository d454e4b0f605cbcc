import { readdir, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { lockHolderAlive } from '../session/lock.js';
import { activeDir, sessionPaths } from '../session/paths.js';
import { gitOut } from './git-run.js';
import { clearLeftoverStart, sessionBranchName, sessionWorktreeDir } from './session-worktree.js';

/** A start younger than this may still be on its way to its first save (its folder is claimed before its lock). */
const SETTLE_MS = 60_000;

/** Files a start writes before its first save: their presence alone is no session worth keeping. */
const START_ONLY = new Set(['.lock', '.process', '.task', '.summaries']);

async function holdsOnlyStartFiles(dir: string): Promise<boolean> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => null);
  if (!entries) return false;
  for (const e of entries) {
    if (!START_ONLY.has(e.name)) return false;
    if (e.isDirectory() && (await readdir(join(dir, e.name))).length > 0) return false;
  }
  return true;
}

/**
 * Sessions whose start was stopped (kill -9, a crash) after it made its worktree and before it saved anything: a
 * session folder holding nothing but what a start makes, no live lock, and a session branch holding nothing but
 * the snapshot of the user's changes. Their worktree, branch and folder are removed; the ids removed.
 * Anything else (a saved state, a commit of the loop's, a folder of another kind) is left as it is.
 */
export async function clearAbandonedStarts(root: string, commonDir: string, now = Date.now()): Promise<string[]> {
  const names = (await readdir(activeDir(root)).catch(() => [] as string[])).filter((n) => n.startsWith('WFS-'));
  const candidates: string[] = [];
  for (const id of names) {
    const paths = sessionPaths(root, id);
    const made = await stat(paths.dir).then(
      (s) => s.mtimeMs,
      () => now,
    );
    if (now - made < SETTLE_MS || !(await holdsOnlyStartFiles(paths.dir)) || (await lockHolderAlive(paths.lock)))
      continue;
    candidates.push(id);
  }
  if (candidates.length === 0) return [];
  const refs = (
    await gitOut(root, [
      'for-each-ref',
      '--format=%(refname)',
      'refs/heads/fixcycle',
      ...candidates.map((id) => `refs/heads/fixcycle/${id}`),
      ...candidates.map((id) => `refs/heads/fixcycle-session/${id}`),
    ])
  )
    .split('\n')
    .filter(Boolean);
  const cleared: string[] = [];
  for (const id of candidates) {
    const branch = sessionBranchName(refs, id);
    if (!refs.includes(`refs/heads/${branch}`)) continue;
    try {
      // Refuses a branch with commits of its own: then it stays, with the session folder.
      await clearLeftoverStart(root, sessionWorktreeDir(resolve(root, commonDir), id), branch, id);
    } catch {
      continue;
    }
    await rm(sessionPaths(root, id).dir, { recursive: true, force: true });
    cleared.push(id);
  }
  return cleared;
}
