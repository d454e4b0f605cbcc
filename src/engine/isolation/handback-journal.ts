import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writeJsonAtomic } from '../session/atomic.js';
import { blobAt } from './blob-merge.js';
import { gitRun } from './git-run.js';

/**
 * What a hand-back is about to write, saved before the user's branch moves: a hand-back stopped between moving
 * the branch and writing the fixed files (kill -9, a crash) is finished from it at the next start, so the
 * user's tree never stays behind their own branch, showing the fixes as changes of theirs to undo.
 */
export interface HandBackJournal {
  /** The user's branch before and after the move. */
  head: string;
  tip: string;
  how: 'fast-forward' | 'cherry-pick';
  commits: string[];
  merged: string[];
  files: JournalFile[];
}

export interface JournalFile {
  path: string;
  /** The blob the working copy becomes, or null to delete it. */
  blob: string | null;
  mode: string;
  /** The blob of the working copy as the hand-back saw it (null when absent): a save after it gets the fix merged in. */
  seen: string | null;
  /** The index line to write (`update-index --index-info`), and the entry it replaces (`mode sha`, or null). */
  indexLine: string;
  indexBefore: string | null;
}

export const journalPath = (processDir: string): string => join(processDir, 'handback-journal.json');

export async function saveJournal(path: string, journal: HandBackJournal): Promise<void> {
  await writeJsonAtomic(path, journal);
}

export async function readJournal(path: string): Promise<HandBackJournal | null> {
  try {
    const parsed = JSON.parse(await readFile(path, 'utf8')) as HandBackJournal;
    return Array.isArray(parsed.files) && typeof parsed.tip === 'string' ? parsed : null;
  } catch {
    return null;
  }
}

export const dropJournal = (path: string): Promise<void> => rm(path, { force: true });

/** Did the user's branch take the fixes (it is at the journal's tip, or the user committed on top of it)? */
export async function branchMoved(root: string, userBranch: string, journal: HandBackJournal): Promise<boolean> {
  return (await gitRun(root, ['merge-base', '--is-ancestor', journal.tip, userBranch])).code === 0;
}

/** A journal blob's content (null: the file absent). */
export const journalContent = (root: string, blob: string | null): Promise<Buffer | null> =>
  blob === null ? Promise.resolve(null) : blobAt(root, blob, '');
