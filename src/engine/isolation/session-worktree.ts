import { existsSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { lstat, mkdir, readFile, rename, rm, symlink } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { WORKFLOW_DIR, workflowDir } from '../session/paths.js';
import { gitOut, gitRun, PARALLEL_CHECKOUT } from './git-run.js';

/** The session's worktree cannot be made or found; the message names the cause and the fix. */
export class IsolationError extends Error {}

/**
 * Where a session's worktree lives: out of the user's tree and of their tools' globs, and not under the git
 * directory either, whose `.git` in the path makes jest's file map ignore every file ("No files found"). One folder
 * per repository (its git directory's name and a hash of its path) in the system's temporary folder; a worktree
 * lost there (a reboot) is made again from its branch when the session resumes.
 */
export function sessionWorktreeDir(commonDir: string, sessionId: string): string {
  const repo = basename(dirname(resolve(commonDir))) || 'repo';
  const key = createHash('sha1').update(resolve(commonDir)).digest('hex').slice(0, 10);
  // The checkout keeps the user's path below the session's folder: a project whose imports go through its folder's
  // name (a Python package checked out as itself, found through its parent on sys.path), or whose tests expect their
  // own path (a Go package in its GOPATH folder, src/github.com/owner/name), runs there as in the user's tree.
  const checkout = dirname(resolve(commonDir)).split(sep).filter(Boolean);
  return join(tmpdir(), 'fixcycle-worktrees', `${repo}-${key}`, sessionId, ...(checkout.length ? checkout : [repo]));
}

/**
 * `fixcycle/<id>`; `fixcycle-session/<id>` when the user has a branch named `fixcycle` (git cannot have both).
 * `refs`: the repository's branches under refs/heads/fixcycle and refs/heads/fixcycle-session/<id>.
 */
export function sessionBranchName(refs: readonly string[], sessionId: string): string {
  return refs.includes('refs/heads/fixcycle') ? `fixcycle-session/${sessionId}` : `fixcycle/${sessionId}`;
}

/** Why a worktree cannot be made in a submodule's checkout (git's worktree support for submodules is incomplete). */
export function submoduleRefusal(root: string, superproject: string): string {
  return `${root} is a submodule of ${superproject}, where git cannot make the session's worktree reliably: run fixcycle with --in-place, or in the superproject`;
}

/** The subject of the commit holding the user's uncommitted changes a session started from. */
export const snapshotSubject = (sessionId: string): string =>
  `fixcycle: your uncommitted changes as session ${sessionId} started`;

/**
 * The branch and worktree of a new session's id left by a start killed before its state was saved (kill -9, a
 * crash, with the same --session-name; called when that branch exists): holding nothing but the snapshot of the user's changes, they are removed.
 * A branch with commits of its own is refused, naming the way out.
 */
export async function clearLeftoverStart(root: string, dir: string, branch: string, sessionId: string): Promise<void> {
  const ref = `refs/heads/${branch}`;
  const own = (
    await gitOut(root, ['log', '--format=%s', ref, '--not', '--tags', '--remotes', `--exclude=${branch}`, '--branches'])
  )
    .split('\n')
    .filter((subject) => subject && subject !== snapshotSubject(sessionId));
  if (own.length)
    throw new IsolationError(
      `a branch ${branch} is left from an earlier session of that name, with ${own.length} commit(s) of its own: take them (git log ${branch}) and delete it (git branch -D ${branch}), or pick another --session-name`,
    );
  await removeSessionWorktree(root, dir, branch, false);
}

/** The session's branch at `snapshot`, made before its worktree (a kill after this leaves a session that resumes). */
export async function addSessionBranch(root: string, branch: string, snapshot: string): Promise<void> {
  // The empty old value makes git refuse a branch that exists.
  const r = await gitRun(root, ['update-ref', `refs/heads/${branch}`, snapshot, '']);
  if (r.code !== 0)
    throw new IsolationError(
      `git cannot make the session's branch ${branch} (${r.stderr.trim().split('\n')[0]}): pass --in-place to run in your working tree`,
    );
}

/** Makes the session's worktree on its branch (addSessionBranch); the user's tree, index and branch are untouched. */
export async function addSessionWorktree(root: string, dir: string, branch: string): Promise<void> {
  await mkdir(dirname(dir), { recursive: true });
  const r = await gitRun(root, [...PARALLEL_CHECKOUT, 'worktree', 'add', '--quiet', dir, branch]);
  if (r.code !== 0)
    throw new IsolationError(
      `git cannot make the session's worktree (${r.stderr.trim().split('\n')[0]}): pass --in-place to run in your working tree`,
    );
}

/**
 * The session folder seen from the worktree: its `.workflow` is a link to the user's session folder, so the agent
 * is told the paths it always was and the pane reads the same files.
 */
export async function linkSessionFolder(dir: string, userRoot: string): Promise<void> {
  const link = join(dir, WORKFLOW_DIR);
  if (
    await lstat(link).then(
      () => true,
      () => false,
    )
  )
    return;
  await symlink(workflowDir(userRoot), link, 'dir').catch(() => undefined);
}

/** Is `dir` still a worktree of the repository (not removed by hand)? */
async function isWorktree(dir: string): Promise<boolean> {
  if (!existsSync(join(dir, '.git'))) return false;
  return (await gitRun(dir, ['rev-parse', '--show-toplevel'])).code === 0;
}

/**
 * The worktree of a session being resumed: as it was, or made again from the session's branch when it was
 * removed by hand (the commits are on the branch; only uncommitted work of the agent is gone).
 */
export async function reopenSessionWorktree(root: string, dir: string, branch: string): Promise<'kept' | 'recreated'> {
  if (await isWorktree(dir)) return 'kept';
  await gitRun(root, ['worktree', 'prune']);
  const has = await gitRun(root, ['show-ref', '--verify', '--quiet', `refs/heads/${branch}`]);
  if (has.code !== 0)
    throw new IsolationError(
      `the session's worktree ${dir} and its branch ${branch} are gone, so it cannot be resumed: start a new session with \`fixcycle run\``,
    );
  await rm(dir, { recursive: true, force: true });
  await mkdir(dirname(dir), { recursive: true });
  const r = await gitRun(root, [...PARALLEL_CHECKOUT, 'worktree', 'add', '--quiet', dir, branch]);
  if (r.code !== 0)
    throw new IsolationError(
      `git cannot make the session's worktree again (${r.stderr.trim().split('\n')[0]}): check \`git worktree list\`, or start a new session`,
    );
  return 'recreated';
}

/**
 * Takes a folder away at once (renamed beside itself) and deletes it in a process of its own that outlives
 * fixcycle: a worktree's hard-linked node_modules holds tens of thousands of entries, and deleting them is time
 * the user would wait for at every session's end. Deleted in place where the rename fails.
 */
async function discard(worktree: string): Promise<void> {
  // The session's folder (fixcycle-worktrees/<repo>-<hash>/<session>), which holds only the checkout, goes with it.
  let dir = worktree;
  for (let up = worktree; dirname(up) !== up; up = dirname(up))
    if (basename(dirname(dirname(up))) === 'fixcycle-worktrees') {
      dir = up;
      break;
    }
  const trash = `${dir}.removed-${process.pid}-${Date.now()}`;
  try {
    await rename(dir, trash);
  } catch {
    await rm(dir, { recursive: true, force: true });
    return;
  }
  try {
    spawn('rm', ['-rf', trash], { detached: true, stdio: 'ignore' }).unref();
  } catch {
    await rm(trash, { recursive: true, force: true });
  }
}

/** Removes the session's worktree; its branch too unless it still holds fixes waiting for the user. */
export async function removeSessionWorktree(
  root: string,
  dir: string,
  branch: string,
  keepBranch: boolean,
  /** False for a worktree never made: only the branch goes, with nothing of git's to prune. */
  made = true,
): Promise<void> {
  if (!made) {
    if (!keepBranch) await gitRun(root, ['update-ref', '-d', `refs/heads/${branch}`]);
    return;
  }
  // git's record of the worktree, named by its .git file, goes with the folder, and the branch with them, all at
  // once: `git worktree remove` then `git branch -D` cost two git starts in a row at every session's end, and
  // their checks are for a tree someone works in, not the session's own.
  const record = await readFile(join(dir, '.git'), 'utf8').then(
    (text) => {
      const path = /^gitdir: (.+)$/m.exec(text)?.[1]?.trim();
      return path ? resolve(dir, path) : undefined;
    },
    () => undefined,
  );
  const known = record && /[\\/]worktrees[\\/][^\\/]+$/.test(record);
  await Promise.all([
    discard(dir),
    known ? rm(record, { recursive: true, force: true }) : undefined,
    keepBranch ? undefined : gitRun(root, ['update-ref', '-d', `refs/heads/${branch}`]),
  ]);
  // A folder removed by hand left git's record behind: pruned.
  if (!known) await gitRun(root, ['worktree', 'prune']);
}
