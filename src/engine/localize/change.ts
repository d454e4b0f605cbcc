import { execa } from 'execa';
import { isSuspectSource } from './source-paths.js';
import { lastGreenCommit } from './green-commits.js';

/** Lines changed since a base, by file; a deletion marks the line after it. */
export type ChangedLines = Map<string, Set<number>>;

/** The lines of the work tree that differ from `base` (a commit), in the project's source files. */
export async function changedLinesSince(root: string, base: string): Promise<ChangedLines> {
  const r = await execa('git', ['diff', '-U0', '--no-color', '--no-ext-diff', base, '--'], {
    cwd: root,
    reject: false,
    maxBuffer: 64 * 1024 * 1024,
  });
  const out: ChangedLines = new Map();
  if (r.exitCode !== 0) return out;
  let file: string | null = null;
  for (const line of r.stdout.split('\n')) {
    if (line.startsWith('+++ ')) {
      const path = line.slice(4).replace(/^b\//, '');
      file = path !== '/dev/null' && isSuspectSource(path) ? path : null;
      continue;
    }
    const hunk = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/.exec(line);
    if (!hunk || !file) continue;
    const start = Number(hunk[1]);
    const count = hunk[2] === undefined ? 1 : Number(hunk[2]);
    const set = out.get(file) ?? new Set<number>();
    if (count === 0) set.add(Math.max(1, start + 1));
    for (let k = 0; k < count; k++) set.add(start + k);
    out.set(file, set);
  }
  return out;
}

/** The base of the change evidence and why it was chosen, or why there is none. */
export async function changeBase(
  root: string,
  failing: readonly string[],
  startedFrom?: string,
): Promise<{ base: string; why: string } | { base: null; why: string }> {
  const green = await lastGreenCommit(root, failing);
  if (green) return { base: green, why: `since ${green.slice(0, 7)}, the last commit where these tests passed` };
  // A loop in its own worktree starts from a commit of the user's uncommitted changes: those are the change, as
  // they were at the start (never what the user saves later, which the worktree does not see).
  if (startedFrom)
    return {
      base: startedFrom,
      why: 'the uncommitted changes the session started from (no commit where these tests passed is known)',
    };
  const dirty = await execa('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: root, reject: false });
  if (dirty.exitCode === 0 && dirty.stdout.trim() !== '')
    return { base: 'HEAD', why: 'uncommitted changes (no commit where these tests passed is known)' };
  return { base: null, why: 'no commit where these tests passed is known and the work tree has no uncommitted change' };
}
