import { copyFile, mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { gitOut, gitRun } from './git-run.js';

/** The user's state a session starts from: their HEAD, and a commit of it with their uncommitted changes. */
export interface StartSnapshot {
  /** The user's branch (`refs/heads/main`). */
  branch: string;
  /** The user's HEAD commit at the start. */
  base: string;
  /** `base` itself when nothing was uncommitted, else a commit on top of it holding the uncommitted changes. */
  snapshot: string;
  /** The uncommitted paths it holds (tracked edits, staged, untracked not ignored). */
  files: string[];
  /** With `keepIndex`: the index the snapshot was written from, to ask later whether the files still match it. */
  index?: string;
}

/**
 * Commits the working tree as the user sees it (HEAD, their staged and unstaged edits, untracked files that are
 * not ignored) without writing their index or their files: `git add -A` runs on a copy of the index (a copy keeps
 * its stat cache, so a large tree is not hashed again), and the tree becomes a commit no branch points to.
 * `git stash create` would miss the untracked files. `head`: the HEAD commit and its tree, when the caller has them.
 * `keepIndex`: the copy of the index is kept (the caller removes it) for `filesStillMatch`. `clean`: git status
 * just listed nothing uncommitted, so the snapshot is HEAD itself and `git add -A` would find nothing to add.
 */
export async function snapshotUserState(
  root: string,
  gitDir: string,
  branch: string,
  message: string,
  head?: { base: string; tree: string },
  keepIndex = false,
  clean = false,
): Promise<StartSnapshot> {
  const base = head?.base ?? (await gitOut(root, ['rev-parse', 'HEAD'])).trim();
  const tmpDir = join(gitDir, 'fixcycle');
  await mkdir(tmpDir, { recursive: true });
  const index = join(tmpDir, `snapshot-index-${process.pid}-${Date.now()}`);
  try {
    const copied = await copyFile(join(gitDir, 'index'), index).then(
      () => true,
      () => false,
    );
    const env = { GIT_INDEX_FILE: index };
    if (!copied) await gitOut(root, ['read-tree', 'HEAD'], { env });
    const kept = keepIndex ? { index } : {};
    if (clean) return { branch, base, snapshot: base, files: [], ...kept };
    await gitOut(root, ['add', '-A', '--', '.'], { env });
    const tree = (await gitOut(root, ['write-tree'], { env })).trim();
    const headTree = head?.tree ?? (await gitOut(root, ['rev-parse', 'HEAD^{tree}'])).trim();
    if (tree === headTree) return { branch, base, snapshot: base, files: [], ...kept };
    const names = await gitOut(root, ['diff', '--name-only', '-z', '--no-renames', headTree, tree]);
    const snapshot = (await gitOut(root, ['commit-tree', tree, '-p', base, '-m', message])).trim();
    return { branch, base, snapshot, files: names.split('\0').filter(Boolean), ...kept };
  } catch (error) {
    if (keepIndex) await dropIndex(index);
    throw error;
  } finally {
    if (!keepIndex) await dropIndex(index);
  }
}

/** Removes an index copy made by snapshotUserState. */
export async function dropIndex(index: string): Promise<void> {
  await rm(index, { force: true });
  await rm(`${index}.lock`, { force: true });
}

/**
 * Do the user's files still hold what the snapshot took from them (`index`, kept by snapshotUserState)? Compares
 * contents, not only times; a file edited, deleted or made over since is a difference. New untracked files are not.
 */
export async function filesStillMatch(root: string, index: string): Promise<boolean> {
  const r = await gitRun(root, ['diff', '--quiet', '--no-ext-diff', '--ignore-submodules'], {
    env: { GIT_INDEX_FILE: index },
  });
  return r.code === 0;
}

/** Paths with unresolved merge conflicts in the user's index (a merge or rebase stopped half-way). */
export async function unmergedPaths(root: string): Promise<string[]> {
  const r = await gitRun(root, ['diff', '--name-only', '--diff-filter=U', '-z']);
  return [...new Set(r.stdout.split('\0').filter(Boolean))];
}
