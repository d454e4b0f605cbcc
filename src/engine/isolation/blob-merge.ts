import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gitBytes, gitOut } from './git-run.js';

/** A blob's content (`path` at `rev`, or the blob `rev` itself when `path` is ''), or null when it is absent. */
export async function blobAt(root: string, rev: string, path: string): Promise<Buffer | null> {
  const r = await gitBytes(root, ['cat-file', 'blob', path === '' ? rev : `${rev}:${path}`]);
  return r.code === 0 ? r.stdout : null;
}

/** Writes `content` into the object store; its id. */
export async function writeBlob(root: string, content: Buffer): Promise<string> {
  return (await gitOut(root, ['hash-object', '-w', '--stdin'], { input: content })).trim();
}

/**
 * Three-way merges one file's contents (`git merge-file`): the changes from `base` to `theirs` applied to `ours`.
 * Null when they touch the same lines (a conflict) or one side is binary.
 */
export async function mergeContents(root: string, ours: Buffer, base: Buffer, theirs: Buffer): Promise<Buffer | null> {
  if (ours.equals(base)) return theirs;
  if (theirs.equals(base) || ours.equals(theirs)) return ours;
  if ([ours, base, theirs].some((b) => b.includes(0))) return null;
  const dir = await mkdtemp(join(tmpdir(), 'fixcycle-merge-'));
  try {
    await Promise.all([
      writeFile(join(dir, 'ours'), ours),
      writeFile(join(dir, 'base'), base),
      writeFile(join(dir, 'theirs'), theirs),
    ]);
    const r = await gitBytes(root, [
      'merge-file',
      '-p',
      '--quiet',
      join(dir, 'ours'),
      join(dir, 'base'),
      join(dir, 'theirs'),
    ]);
    // merge-file exits with the number of conflicts, or an error code.
    return r.code === 0 ? r.stdout : null;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
