import { existsSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { isTestSide } from '../gen/source-files.js';

async function git(cwd: string, args: string[]): Promise<{ ok: boolean; out: string; err: string }> {
  const r = await execa('git', args, { cwd, reject: false });
  return { ok: r.exitCode === 0, out: r.stdout.trim(), err: r.stderr.trim() };
}

/** Paths with uncommitted changes in `cwd` (untracked included), excluding fixcycle's own folder. */
export async function dirtyFiles(cwd: string): Promise<string[]> {
  // Not trimmed: the first entry's status column may start with a space.
  const r = await execa('git', ['status', '--porcelain=v1', '-z', '--untracked-files=all'], { cwd, reject: false });
  return r.stdout.split('\0').filter((e) => e.length > 3).map((e) => e.slice(3)).filter((f) => !f.startsWith('.workflow/'));
}

/** A detached worktree at HEAD for one task, under the session folder. */
export async function addWorktree(root: string, dir: string): Promise<void> {
  if (existsSync(dir)) await removeWorktree(root, dir);
  const r = await git(root, ['worktree', 'add', '--detach', '--quiet', dir, 'HEAD']);
  if (!r.ok) throw new Error(`git worktree add failed (${r.err.split('\n')[0]}): check \`git worktree list\` and prune stale entries`);
}

export async function removeWorktree(root: string, dir: string): Promise<void> {
  await git(root, ['worktree', 'remove', '--force', dir]);
  await rm(dir, { recursive: true, force: true });
  await git(root, ['worktree', 'prune']);
}

/** Removes every task worktree a stopped run left behind. */
export async function removeAllWorktrees(root: string, parent: string): Promise<void> {
  for (const name of await readdir(parent).catch(() => [] as string[])) await removeWorktree(root, join(parent, name));
}

/** Commits exactly `files` in `cwd`; returns the commit. */
export async function commitFiles(cwd: string, files: readonly string[], message: string): Promise<string | null> {
  if (files.length === 0) return null;
  await git(cwd, ['add', '-A', '--', ...files]);
  const r = await git(cwd, ['-c', 'commit.gpgsign=false', 'commit', '-q', '--no-verify', '-m', message, '--', ...files]);
  if (!r.ok) throw new Error(`git commit failed in ${cwd} (${r.err.split('\n')[0]})`);
  return (await git(cwd, ['rev-parse', 'HEAD'])).out;
}

/** Brings a task's commit from its worktree onto the main tree; false (and nothing applied) on a conflict. */
export async function cherryPick(root: string, sha: string): Promise<boolean> {
  const r = await git(root, ['-c', 'commit.gpgsign=false', 'cherry-pick', '--allow-empty', sha]);
  if (r.ok) return true;
  await git(root, ['cherry-pick', '--abort']);
  return false;
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
