import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** path -> content hash ('-' for a deleted or unreadable file), as the agent's fix left it. */
export type TreePrint = Record<string, string>;

/** In place, a file of the fix changed after the agent's step (the user saved it, another tool wrote it). */
export class TreeChangedError extends Error {}

async function hash(root: string, file: string): Promise<string> {
  try {
    return createHash('sha1')
      .update(await readFile(join(root, file)))
      .digest('hex');
  } catch {
    return '-';
  }
}

/** The fix's files as the agent left them. */
export async function printFiles(root: string, files: readonly string[]): Promise<TreePrint> {
  const hashes = await Promise.all(files.map((f) => hash(root, f)));
  return Object.fromEntries(files.map((f, i) => [f, hashes[i]!]));
}

/** The files of `print` that are no longer as the agent left them. */
export async function changedSince(root: string, print: TreePrint): Promise<string[]> {
  const files = Object.keys(print);
  const now = await Promise.all(files.map((f) => hash(root, f)));
  return files.filter((f, i) => now[i] !== print[f]);
}

/** The one-line stop of an in-place loop that would otherwise commit someone else's change as the fix. */
export function treeChangedMessage(files: readonly string[], sessionId: string): string {
  return `${files.slice(0, 3).join(', ')}${files.length > 3 ? ', ...' : ''} changed after the agent's fix (saved by you or another tool): fixcycle committed nothing; check \`git diff\`, then resume with --resume-session ${sessionId}, or run without --in-place so the loop works in its own worktree`;
}
