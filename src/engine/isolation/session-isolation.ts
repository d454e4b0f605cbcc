import type { EngineEvent } from '../events.js';
import { Repo } from '../git.js';
import { gitOut } from './git-run.js';
import { handBack } from './handback.js';
import { snapshotUserState, unmergedPaths } from './snapshot.js';
import {
  addSessionWorktree,
  clearLeftoverStart,
  commonGitDir,
  IsolationError,
  linkSessionFolder,
  removeSessionWorktree,
  reopenSessionWorktree,
  sessionBranchName,
  sessionWorktreeDir,
  snapshotSubject,
  worktreeRefusal,
} from './session-worktree.js';
import type { HandBackRecord, SessionWorktree } from './types.js';
import { describeEnv, prepareSessionWorktree } from './worktree-env.js';

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

async function makeReady(root: string, dir: string, notes: EngineEvent[]): Promise<Repo> {
  await linkSessionFolder(dir, root);
  const env = await prepareSessionWorktree(root, dir);
  preferOnPythonPath(env.pythonPath);
  for (const line of describeEnv(env))
    notes.push({ type: 'log', level: line.includes('cannot reproduce') ? 'warn' : 'info', message: line });
  return Repo.open(dir);
}

/**
 * A new session's worktree, started from the user's state: their HEAD plus their uncommitted changes as they are
 * now (a snapshot commit made without touching their index or files), on a branch named after the session.
 */
export async function isolateNewSession(repo: Repo, sessionId: string): Promise<IsolatedRepo> {
  const refused = await worktreeRefusal(repo.root);
  if (refused) throw new IsolationError(refused);
  const unmerged = await unmergedPaths(repo.root);
  if (unmerged.length)
    throw new IsolationError(
      `your index has unresolved conflicts (${unmerged.slice(0, 3).join(', ')}): finish the merge or rebase (git add them, or git merge --abort), then start again`,
    );
  const userBranch = (await gitOut(repo.root, ['symbolic-ref', '-q', 'HEAD'])).trim();
  const snap = await snapshotUserState(repo.root, repo.gitDir, userBranch, snapshotSubject(sessionId));
  const dir = sessionWorktreeDir(await commonGitDir(repo.root), sessionId);
  const branch = await sessionBranchName(repo.root, sessionId);
  await clearLeftoverStart(repo.root, dir, branch, sessionId);
  await addSessionWorktree(repo.root, dir, branch, snap.snapshot);
  const record: SessionWorktree = { dir, branch, user_branch: userBranch, base: snap.base, snapshot: snap.snapshot };
  try {
    const notes: EngineEvent[] = [];
    const work = await makeReady(repo.root, dir, notes);
    notes.unshift({
      type: 'log',
      level: 'info',
      message: `the loop works in its own worktree on ${branch}${snap.files.length ? `, from your HEAD and your ${snap.files.length} uncommitted file(s) as they are now` : ''}; your working tree, index and branch are not written until the fixes come back`,
    });
    return { work, record, notes };
  } catch (error) {
    await removeSessionWorktree(repo.root, dir, branch, false);
    throw error;
  }
}

/** A resumed session's worktree: as it was, or made again from its branch when it was removed by hand. */
export async function reopenIsolatedSession(repo: Repo, record: SessionWorktree): Promise<IsolatedRepo> {
  const how = await reopenSessionWorktree(repo.root, record.dir, record.branch);
  const notes: EngineEvent[] = [];
  if (how === 'recreated')
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
  input: { ended: boolean; succeeded: boolean; apply: boolean },
  emit: (event: EngineEvent) => void,
): Promise<HandBackRecord | null> {
  let result: HandBackRecord | null = null;
  if (input.succeeded) {
    result = await handBack(repo.root, repo.gitDir, record, { apply: input.apply });
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
    await removeSessionWorktree(repo.root, record.dir, record.branch, waiting || !input.succeeded);
  }
  return result;
}
