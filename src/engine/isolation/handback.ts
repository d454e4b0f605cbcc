import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { writeBlob } from './blob-merge.js';
import { gitOut, gitRun } from './git-run.js';
import {
  blob,
  equal,
  indexEntries,
  mergeThreeWay,
  read,
  writeJournalFiles,
  type Entry,
  type Written,
} from './handback-files.js';
import { branchMoved, dropJournal, readJournal, saveJournal, type HandBackJournal } from './handback-journal.js';
import { entriesAt, replayCommits } from './replay.js';
import type { HandBackRecord, SessionWorktree } from './types.js';

/** What one file of the user's tree becomes: its working copy and its index entry. */
interface FilePlan {
  path: string;
  /** The working copy's new content, or null to delete it. */
  content: Buffer | null;
  mode: string;
  /** The index entry's new blob, or null to remove it. */
  index: Entry;
  /** The user had uncommitted changes here: the fix was merged three-way into them. */
  merged: boolean;
  /** The working copy as it was when planned, to see a save that came after. */
  seen: Buffer | null;
  /** The blob of `seen` (null when the file was absent). */
  seenBlob: string | null;
  /** The blob of `content` (null when the file goes). */
  blob: string | null;
  /** The user's index entry when planned (`mode sha`), to leave one they staged since. */
  indexBefore: string | null;
}

/**
 * Plans each file that differs between the user's HEAD and the new tip: taken as it is where the user has no
 * uncommitted change in it, merged three-way into their working copy (and staged copy) where they have; null
 * with the path where the fix and the user's change meet (a conflict).
 */
async function planFiles(root: string, head: string, tip: string): Promise<FilePlan[] | { conflict: string }> {
  const paths = (await gitOut(root, ['diff', '--name-only', '-z', '--no-renames', head, tip]))
    .split('\0')
    .filter(Boolean);
  if (paths.length === 0) return [];
  const [before, after, staged] = await Promise.all([
    entriesAt(root, head, paths),
    entriesAt(root, tip, paths),
    indexEntries(root, paths),
  ]);
  const plans: FilePlan[] = [];
  for (const path of paths) {
    const b = before.get(path) ?? null;
    const a = after.get(path) ?? null;
    const i = staged.get(path) ?? null;
    if ([b, a, i].some((e) => e?.mode === '160000')) return { conflict: path };
    const [base, theirs, work, index] = await Promise.all([
      blob(root, b),
      blob(root, a),
      read(join(root, path)),
      blob(root, i),
    ]);
    const link = await lstat(join(root, path)).then(
      (s) => s.isSymbolicLink(),
      () => false,
    );
    if (link) return { conflict: path };
    const mode = a?.mode ?? b?.mode ?? '100644';
    const content = await mergeThreeWay(root, work, base, theirs);
    const indexed = await mergeThreeWay(root, index, base, theirs);
    if (content === 'conflict' || indexed === 'conflict') return { conflict: path };
    const indexEntry: Entry =
      indexed === null ? null : equal(indexed, theirs) ? a : { mode, sha: await writeBlob(root, indexed) };
    const blobOf = async (bytes: Buffer | null): Promise<string | null> =>
      bytes === null
        ? null
        : equal(bytes, theirs) && a
          ? a.sha
          : equal(bytes, base) && b
            ? b.sha
            : writeBlob(root, bytes);
    const [contentBlob, seenBlob] = await Promise.all([blobOf(content), blobOf(work)]);
    plans.push({
      path,
      content,
      mode,
      index: indexEntry,
      merged: !equal(work, base) || !equal(index, base),
      seen: work,
      seenBlob,
      blob: contentBlob,
      indexBefore: i ? `${i.mode} ${i.sha}` : null,
    });
  }
  return plans;
}

/** The record of a hand-back whose files were written. */
function applied(journal: HandBackJournal, at: string, written: Written, note?: string): HandBackRecord {
  const reasons = [
    ...(note ? [note] : []),
    ...(written.kept.length
      ? [
          `you saved ${written.kept.join(', ')} during the hand-back, on lines the fix changes: your copy was kept; \`git diff HEAD\` shows the fix missing there`,
        ]
      : []),
  ];
  const merged = [...new Set([...journal.merged, ...written.mergedSaves])];
  return {
    status: 'applied',
    how: journal.how,
    commits: journal.commits,
    ...(merged.length ? { merged } : {}),
    ...(reasons.length ? { reason: reasons.join('; ') } : {}),
    at,
  };
}

/**
 * A hand-back stopped before it finished (its journal is still there): when the user's branch had already taken
 * the fixes, the files are written now, as the stopped hand-back would have; otherwise it never moved anything
 * and the hand-back starts over (null).
 */
async function resumeHandBack(
  root: string,
  record: SessionWorktree,
  path: string,
  at: string,
): Promise<HandBackRecord | null> {
  const journal = await readJournal(path);
  if (!journal) return null;
  if (!(await branchMoved(root, record.user_branch, journal))) {
    await dropJournal(path);
    return null;
  }
  const away = await switchedAway(root, record);
  if (away)
    return applied(
      journal,
      at,
      { mergedSaves: [], kept: [] },
      `${away} after your branch took the fixes: your working tree was left as it is; \`git switch ${short(record.user_branch)}\` shows them`,
    );
  const written = await writeJournalFiles(root, journal, new Map());
  return applied(journal, at, written, 'finished a hand-back that was stopped after your branch took the fixes');
}

/** The command that brings the session's fixes over by hand. */
export function handBackCommand(record: SessionWorktree): string {
  return `git cherry-pick ${record.snapshot.slice(0, 12)}..${record.branch}`;
}

const short = (ref: string): string => ref.replace(/^refs\/heads\//, '');

/**
 * The user's HEAD is no longer the branch the session started from (switched, or detached, while the loop ran):
 * the fixes must not land on the branch they are on now. What happened, in words, or null.
 */
async function switchedAway(root: string, record: SessionWorktree): Promise<string | null> {
  const current = (await gitRun(root, ['symbolic-ref', '-q', 'HEAD'])).stdout.trim();
  if (current === record.user_branch) return null;
  return current ? `you switched to ${short(current)}` : 'your HEAD was detached';
}

/**
 * Brings a session's fix commits to the user's branch: a fast-forward when the branch has not moved since the
 * snapshot, otherwise the commits cherry-picked onto it (the user's own commits stay as they are). The user's
 * working tree gets the fixed files; a file they have uncommitted changes in gets the fix merged three-way into
 * it, never overwritten. When the fix meets the user's change (a conflict), or their branch was switched, or
 * `apply` is false, nothing of theirs is written and the fixes wait on the session's branch with the command
 * that merges them.
 */
export async function handBack(
  root: string,
  gitDir: string,
  record: SessionWorktree,
  options: { apply: boolean; journal?: string },
): Promise<HandBackRecord> {
  const at = new Date().toISOString();
  if (options.journal) {
    const resumed = await resumeHandBack(root, record, options.journal, at);
    if (resumed) return resumed;
  }
  // No net change since the snapshot (no fix, or fixes rolled back): the one git call a green session pays.
  const netChange =
    (await gitRun(root, ['diff', '--quiet', record.snapshot, `refs/heads/${record.branch}`])).code !== 0;
  if (!netChange) return { status: 'nothing', commits: [], at };
  const tip = (await gitOut(root, ['rev-parse', `refs/heads/${record.branch}`])).trim();
  const commits = (await gitOut(root, ['rev-list', '--reverse', `${record.snapshot}..${tip}`]))
    .split('\n')
    .filter(Boolean);
  if (commits.length === 0) return { status: 'nothing', commits: [], at };
  const command = handBackCommand(record);
  const waiting = (reason: string, status: 'waiting' | 'conflict' = 'waiting'): HandBackRecord => ({
    status,
    commits,
    reason,
    command,
    at,
  });
  if (!options.apply) return waiting(`--no-apply: the fixes wait on ${record.branch}`);
  const switched = await switchedAway(root, record);
  if (switched)
    return {
      ...waiting(
        `${switched} while the loop ran (it started on ${short(record.user_branch)}): nothing of yours was written`,
      ),
      command: `git switch ${short(record.user_branch)} && ${command}`,
    };
  for (let attempt = 0; attempt < 2; attempt++) {
    const head = (await gitOut(root, ['rev-parse', record.user_branch])).trim();
    const fastForward = head === record.snapshot;
    const replayed = fastForward ? { tip, commits } : await replayCommits(root, gitDir, commits, head);
    if ('conflict' in replayed)
      return waiting(
        `the fixes touch lines of ${replayed.conflict} that your branch has otherwise (your commits, or the uncommitted changes the session started from): your version was kept`,
        'conflict',
      );
    if (replayed.commits.length === 0)
      return { status: 'nothing', commits: [], reason: 'your branch has these fixes already', at };
    const plans = await planFiles(root, head, replayed.tip);
    if ('conflict' in plans)
      return waiting(`the fixes touch lines you changed in ${plans.conflict}: your version was kept`, 'conflict');
    const journal: HandBackJournal = {
      head,
      tip: replayed.tip,
      how: fastForward ? 'fast-forward' : 'cherry-pick',
      commits: replayed.commits,
      merged: plans.filter((p) => p.merged).map((p) => p.path),
      files: plans.map((p) => ({
        path: p.path,
        blob: p.blob,
        mode: p.mode,
        seen: p.seenBlob,
        indexLine: p.index ? `${p.index.mode} ${p.index.sha}\t${p.path}` : `0 ${'0'.repeat(40)}\t${p.path}`,
        indexBefore: p.indexBefore,
      })),
    };
    // Saved before the branch moves, dropped by the caller once the hand-back is recorded: a hand-back stopped
    // after the move is finished from it at the next start (resumeHandBack), and writing it again is harmless.
    if (options.journal) await saveJournal(options.journal, journal);
    // Compare-and-swap: a commit the user made this very moment is never lost; the hand-back is planned again.
    const moved = await gitRun(root, [
      'update-ref',
      '-m',
      'fixcycle: fixes of the session',
      record.user_branch,
      replayed.tip,
      head,
    ]);
    if (moved.code !== 0) continue;
    // Switched in the instant since the check: the branch has its fixes; the tree now is another branch's.
    const away = await switchedAway(root, record);
    if (away)
      return {
        status: 'applied',
        how: fastForward ? 'fast-forward' : 'cherry-pick',
        commits: replayed.commits,
        reason: `${away} during the hand-back: your working tree was left as it is; \`git switch ${short(record.user_branch)}\` shows the fixes`,
        at,
      };
    const written = await writeJournalFiles(root, journal, new Map(plans.map((p) => [p.path, p])));
    return applied(journal, at, written);
  }
  return waiting(`your branch kept moving during the hand-back: the fixes wait on ${record.branch}`);
}
