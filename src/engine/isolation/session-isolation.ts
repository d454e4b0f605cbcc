import type { EngineEvent } from '../events.js';
import { Repo, type WorkTreeStatus } from '../git.js';
import { clearAbandonedStarts } from './abandoned-starts.js';
import { handBack } from './handback.js';
import { dropIndex, filesStillMatch, snapshotUserState } from './snapshot.js';
import { probeStart, type StartProbe } from './start-probe.js';
import {
  addSessionBranch,
  addSessionWorktree,
  clearLeftoverStart,
  IsolationError,
  linkSessionFolder,
  removeSessionWorktree,
  reopenSessionWorktree,
  sessionBranchName,
  sessionWorktreeDir,
  snapshotSubject,
  submoduleRefusal,
} from './session-worktree.js';
import type { HandBackRecord, SessionWorktree } from './types.js';
import { describeEnv, prepareSessionWorktree } from './worktree-env.js';
import { ignoredEntries } from '../team/worktree-setup.js';
import { resolve } from 'node:path';

export { IsolationError };

/** The loop's repository (the session's worktree), its record for the state file, and what to tell the user. */
export interface IsolatedRepo {
  work: Repo;
  record: SessionWorktree;
  /** Log lines, said once the session is announced. */
  notes: EngineEvent[];
  /** A resumed session's worktree was gone and was made again from its branch (an uncommitted fix is lost). */
  recreated?: boolean;
}

/** PYTHONPATH entries first, so editable installs import the worktree's files (the runner inherits the environment). */
function preferOnPythonPath(paths: readonly string[]): void {
  if (paths.length === 0) return;
  const current = process.env.PYTHONPATH;
  process.env.PYTHONPATH = [...paths, ...(current ? [current] : [])].join(':');
}

async function makeReady(root: string, dir: string, notes: EngineEvent[], ignored?: Promise<string[]>): Promise<Repo> {
  const [, env, work] = await Promise.all([
    linkSessionFolder(dir, root),
    ignored ? ignored.then((entries) => prepareSessionWorktree(root, dir, entries)) : prepareSessionWorktree(root, dir),
    Repo.open(dir),
  ]);
  preferOnPythonPath(env.pythonPath);
  for (const line of describeEnv(env))
    notes.push({ type: 'log', level: line.includes('cannot reproduce') ? 'warn' : 'info', message: line });
  return work;
}

/**
 * A new session whose worktree is not made yet: the snapshot and the branch are (a kill from here on leaves a
 * session that resumes). Its first run can happen in the user's tree, which fixcycle does not write: a suite that
 * passes there while the files still hold the snapshot needs no worktree at all.
 */
export interface PendingIsolation {
  record: SessionWorktree;
  /** Log lines, said once the session is announced. */
  notes: EngineEvent[];
  /** The repository's common git directory (absolute). */
  commonDir: string;
  /** The session's branch is made (on a clean tree, while the first run starts): the state may name it. */
  ready: Promise<void>;
  /**
   * Do the user's files still hold the snapshot (nothing saved since it was taken)? `after`: git status of the
   * user's tree taken since, which answers without a git call of its own when the tree was clean at the start.
   */
  unchanged(after?: Promise<WorkTreeStatus>): Promise<boolean>;
  /** Makes the worktree (once; later calls get the same one). */
  materialize(): Promise<IsolatedRepo>;
  /** Was the worktree made (or begun)? Until then the branch holds the snapshot and nothing else. */
  materialized(): boolean;
  /** Forgets the snapshot's index, once the branch is made (the worktree, if made, stays the session's). */
  release(): Promise<void>;
}

/**
 * A new session's isolation, started from the user's state: their HEAD plus their uncommitted changes as they are
 * now (a snapshot commit made without touching their index or files), on a branch named after the session. The
 * questions about the repository go to git at once (one rev-parse answers most): every run pays for them. The
 * worktree itself is made by `materialize`. `changed`: the uncommitted files git status listed as the run started
 * (none: the snapshot is HEAD, taken with no git call of its own).
 */
export async function beginIsolatedSession(
  repo: Repo,
  sessionId: string,
  changed?: Promise<string[]>,
  probed?: Promise<StartProbe>,
): Promise<PendingIsolation> {
  const [probe, clean] = await Promise.all([
    probed ?? probeStart(repo.root),
    changed?.then(
      (files) => files.length === 0,
      () => false,
    ),
  ]);
  const { base, tree, common, userBranch, superproject, unmerged } = probe;
  if (superproject) throw new IsolationError(submoduleRefusal(repo.root, superproject));
  if (unmerged.length)
    throw new IsolationError(
      `your index has unresolved conflicts (${unmerged.slice(0, 3).join(', ')}): finish the merge or rebase (git add them, or git merge --abort), then start again`,
    );
  const [snap, cleared] = await Promise.all([
    snapshotUserState(
      repo.root,
      repo.gitDir,
      userBranch,
      snapshotSubject(sessionId),
      { base, tree },
      true,
      clean === true,
    ),
    clearAbandonedStarts(repo.root, common).catch(() => [] as string[]),
  ]);
  const index = snap.index!;
  try {
    const dir = sessionWorktreeDir(resolve(repo.root, common), sessionId);
    const branch = sessionBranchName(probe.refs, sessionId);
    const leftover = probe.refs.includes(`refs/heads/${branch}`);
    if (leftover) await clearLeftoverStart(repo.root, dir, branch, sessionId);
    // On a clean tree the branch is made while the first run starts: it only has to be there before the session's
    // state names it (see `ready`), and git refuses it only in a broken repository.
    const ready = addSessionBranch(repo.root, branch, snap.snapshot);
    ready.catch(() => undefined);
    if (!clean || leftover) await ready;
    const record: SessionWorktree = { dir, branch, user_branch: userBranch, base: snap.base, snapshot: snap.snapshot };
    let made: Promise<IsolatedRepo> | undefined;
    const materialize = async (): Promise<IsolatedRepo> => {
      await ready;
      const ignored = ignoredEntries(repo.root);
      ignored.catch(() => undefined);
      await addSessionWorktree(repo.root, dir, branch);
      try {
        const notes: EngineEvent[] = [];
        const work = await makeReady(repo.root, dir, notes, ignored);
        notes.unshift({
          type: 'log',
          level: 'info',
          message: `the loop works in its own worktree on ${branch}${snap.files.length ? `, from your HEAD and your ${snap.files.length} uncommitted file(s) as they were when it started` : ''}; your working tree, index and branch are not written until the fixes come back`,
        });
        return { work, record, notes };
      } catch (error) {
        await removeSessionWorktree(repo.root, dir, branch, true);
        throw error;
      }
    };
    return {
      record,
      notes: cleared.map((id) => ({
        type: 'log',
        level: 'info',
        message: `removed the worktree and branch of ${id}, a start stopped before it saved anything`,
      })),
      commonDir: resolve(repo.root, common),
      ready,
      unchanged: async (after) => {
        // Started clean: HEAD still the snapshot and no tracked change mean the files are the snapshot's. Any
        // other status (a commit, a staged file put back) is asked of the files themselves.
        const status = clean ? await after?.catch(() => null) : null;
        if (status && status.head === snap.snapshot && !status.trackedChanges) return true;
        return filesStillMatch(repo.root, index);
      },
      materialize: () => (made ??= materialize()),
      materialized: () => made !== undefined,
      release: async () => {
        await ready.catch(() => undefined);
        await dropIndex(index);
      },
    };
  } catch (error) {
    await dropIndex(index);
    throw error;
  }
}

/** A new session's worktree made at once (see beginIsolatedSession). */
export async function isolateNewSession(repo: Repo, sessionId: string): Promise<IsolatedRepo> {
  const pending = await beginIsolatedSession(repo, sessionId);
  try {
    const made = await pending.materialize();
    return { ...made, notes: [...made.notes, ...pending.notes] };
  } catch (error) {
    await removeSessionWorktree(repo.root, pending.record.dir, pending.record.branch, false);
    throw error;
  } finally {
    await pending.release();
  }
}

/**
 * A resumed session's worktree: as it was, or made again from its branch when it was removed by hand. `begun`:
 * the session has iterations (a worktree made again is news only then).
 */
export async function reopenIsolatedSession(repo: Repo, record: SessionWorktree, begun = true): Promise<IsolatedRepo> {
  const how = await reopenSessionWorktree(repo.root, record.dir, record.branch);
  const notes: EngineEvent[] = [];
  // Before its first iteration a session may have had no worktree yet (its first run is in the user's tree).
  if (how === 'recreated' && begun)
    notes.push({
      type: 'log',
      level: 'warn',
      message: `the session's worktree was gone: made again from ${record.branch} (its commits are all there; an unfinished fix of the agent is not)`,
    });
  return { work: await makeReady(repo.root, record.dir, notes), record, notes, recreated: how === 'recreated' };
}

/** One line saying where the fixes are. */
export function handBackLine(h: HandBackRecord, record: SessionWorktree): string {
  switch (h.status) {
    case 'applied':
      return `fixes handed back to ${record.user_branch.replace('refs/heads/', '')} by ${h.how} (${h.commits.length} commit(s))${h.merged?.length ? `; merged into your uncommitted changes in ${h.merged.join(', ')}` : ''}${h.reason ? `; ${h.reason}` : ''}`;
    case 'nothing':
      return `no fix to hand back${h.reason ? `: ${h.reason}` : ''}`;
    default:
      return `fixes waiting on ${record.branch}: ${h.reason}; to take them: ${h.command}`;
  }
}

/**
 * Ends an isolated session: at success or an approved partial success its fixes come back (see handBack); the
 * worktree is removed once the session cannot be resumed, and the branch too once nothing waits on it.
 */
export async function finishIsolatedSession(
  repo: Repo,
  record: SessionWorktree,
  input: {
    ended: boolean;
    succeeded: boolean;
    apply: boolean;
    journal: string;
    worktreeMade?: boolean;
    /** Records the hand-back in the session (and drops its journal): done before the worktree goes. */
    keep: (handback: HandBackRecord) => Promise<void>;
  },
  emit: (event: EngineEvent) => void,
): Promise<HandBackRecord | null> {
  let result: HandBackRecord | null = null;
  // A session whose worktree was never made (its first run, in the user's tree, passed) has no fix to look for.
  const made = input.worktreeMade ?? true;
  if (input.succeeded) {
    // A start stopped after it recorded the fixes as come back, before the worktree went: they are not taken again.
    const recorded =
      record.handback && ['applied', 'nothing'].includes(record.handback.status) ? record.handback : null;
    result =
      recorded ??
      (made
        ? await handBack(repo.root, repo.gitDir, record, { apply: input.apply, journal: input.journal })
        : { status: 'nothing', commits: [], at: new Date().toISOString() });
    // Recorded before the worktree and branch go: a kill between the two leaves a session that resumes.
    if (!recorded) await input.keep(result);
    emit({
      type: 'handback',
      status: result.status,
      branch: record.branch,
      commits: result.commits.length,
      ...(result.command && result.status !== 'applied' ? { command: result.command } : {}),
      ...(result.reason ? { reason: result.reason } : {}),
    });
    emit({ type: 'log', level: result.status === 'conflict' ? 'warn' : 'info', message: handBackLine(result, record) });
  }
  if (input.ended) {
    const waiting = result !== null && (result.status === 'waiting' || result.status === 'conflict');
    await removeSessionWorktree(repo.root, record.dir, record.branch, waiting || !input.succeeded, made);
  }
  return result;
}
