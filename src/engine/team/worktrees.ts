import { existsSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { execa } from 'execa';
import { isTestSide } from '../gen/source-files.js';
import { PARALLEL_CHECKOUT } from '../isolation/git-run.js';

async function git(cwd: string, args: string[]): Promise<{ ok: boolean; out: string; err: string }> {
  const r = await execa('git', args, { cwd, reject: false });
  return { ok: r.exitCode === 0, out: r.stdout.trim(), err: r.stderr.trim() };
}

/** Paths with uncommitted changes in `cwd` (untracked included), excluding fixcycle's own folder. */
export async function dirtyFiles(cwd: string): Promise<string[]> {
  // Not trimmed: the first entry's status column may start with a space.
  const r = await execa('git', ['status', '--porcelain=v1', '-z', '--untracked-files=all'], { cwd, reject: false });
  return r.stdout
    .split('\0')
    .filter((e) => e.length > 3)
    .map((e) => e.slice(3))
    .filter((f) => !f.startsWith('.workflow/'));
}

/** The branch of a task's worktree: fixcycle's loop refuses a detached HEAD, and the fix cycle runs there. */
export const worktreeBranch = (dir: string): string => `fixcycle-team-${basename(dir).toLowerCase()}`;

/** A worktree at HEAD for one task, under the session folder, on its own throwaway branch. */
export async function addWorktree(root: string, dir: string): Promise<void> {
  if (existsSync(dir)) await removeWorktree(root, dir);
  await git(root, ['branch', '-D', worktreeBranch(dir)]);
  const r = await git(root, [
    ...PARALLEL_CHECKOUT,
    'worktree',
    'add',
    '-b',
    worktreeBranch(dir),
    '--quiet',
    dir,
    'HEAD',
  ]);
  if (!r.ok)
    throw new Error(
      `git worktree add failed (${r.err.split('\n')[0]}): check \`git worktree list\` and prune stale entries`,
    );
}

export async function removeWorktree(root: string, dir: string): Promise<void> {
  await git(root, ['worktree', 'remove', '--force', dir]);
  await rm(dir, { recursive: true, force: true });
  await git(root, ['worktree', 'prune']);
  await git(root, ['branch', '-D', worktreeBranch(dir)]);
}

/** Removes every task worktree a stopped run left behind. */
export async function removeAllWorktrees(root: string, parent: string): Promise<void> {
  for (const name of await readdir(parent).catch(() => [] as string[])) await removeWorktree(root, join(parent, name));
}

export async function headOf(cwd: string): Promise<string> {
  return (await git(cwd, ['rev-parse', 'HEAD'])).out;
}

/** The commits made in `cwd` since `base`, oldest first. */
export async function commitsSince(cwd: string, base: string): Promise<string[]> {
  const r = await git(cwd, ['rev-list', '--reverse', `${base}..HEAD`]);
  return r.out ? r.out.split('\n') : [];
}

/** Commits exactly `files` in `cwd`; returns the commit. */
export async function commitFiles(cwd: string, files: readonly string[], message: string): Promise<string | null> {
  if (files.length === 0) return null;
  await git(cwd, ['add', '-A', '--', ...files]);
  const r = await git(cwd, [
    '-c',
    'commit.gpgsign=false',
    'commit',
    '-q',
    '--no-verify',
    '-m',
    message,
    '--',
    ...files,
  ]);
  if (!r.ok) throw new Error(`git commit failed in ${cwd} (${r.err.split('\n')[0]})`);
  return (await git(cwd, ['rev-parse', 'HEAD'])).out;
}

/**
 * Brings a task's commits from its worktree onto the main tree, in order. A commit whose change is already there
 * (two fix cycles made the same fix) is dropped; on a conflict nothing stays applied and the answer is false.
 */
export async function cherryPick(root: string, shas: readonly string[]): Promise<boolean> {
  const start = await headOf(root);
  for (const sha of shas) {
    const r = await git(root, ['-c', 'commit.gpgsign=false', 'cherry-pick', '--allow-empty', sha]);
    if (r.ok) continue;
    const unmerged = await git(root, ['diff', '--name-only', '--diff-filter=U']);
    if (unmerged.ok && unmerged.out === '' && (await git(root, ['cherry-pick', '--skip'])).ok) continue;
    await git(root, ['cherry-pick', '--abort']);
    await git(root, ['reset', '--hard', '--quiet', start]);
    return false;
  }
  return true;
}

/** Undoes uncommitted test-side changes (a generator stopped mid-round); returns what was undone. */
export async function discardTestSideChanges(cwd: string): Promise<string[]> {
  const files = (await dirtyFiles(cwd)).filter(isTestSide);
  for (const f of files) {
    const tracked = await git(cwd, ['ls-files', '--error-unmatch', '--', f]);
    if (tracked.ok) await git(cwd, ['checkout', 'HEAD', '--', f]);
    else await rm(join(cwd, f), { force: true });
  }
  return files;
}

/** Undoes uncommitted changes to `files` in `cwd` (restores tracked files, deletes new ones). */
export async function discardFiles(cwd: string, files: readonly string[]): Promise<void> {
  for (const f of files) {
    const tracked = await git(cwd, ['ls-files', '--error-unmatch', '--', f]);
    if (tracked.ok) await git(cwd, ['checkout', 'HEAD', '--', f]);
    else await rm(join(cwd, f), { force: true });
  }
}
