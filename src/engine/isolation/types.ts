/** How the fixes of a session came back to the user's branch, or why they wait on the session's branch. */
export interface HandBackRecord {
  /**
   * applied: on the user's branch (and in their working tree); waiting: kept on the session's branch (--no-apply,
   * the branch switched, no decision yet); conflict: they touch lines the user changed meanwhile, the user's
   * version was kept; nothing: the session left no fix to bring back.
   */
  status: 'applied' | 'waiting' | 'conflict' | 'nothing';
  /** fast-forward when the user's branch had not moved, cherry-pick otherwise. */
  how?: 'fast-forward' | 'cherry-pick';
  /** The fix commits as they now are on the user's branch (applied), or on the session's branch. */
  commits: string[];
  /** Files the user had uncommitted changes in, merged three-way into their working copy. */
  merged?: string[];
  /** Why it did not apply, in one line. */
  reason?: string;
  /** The one command that brings the fixes over by hand. */
  command?: string;
  at: string;
}

/** The worktree a session's loop runs in, recorded in its state file so a resume continues there. */
export interface SessionWorktree {
  /** Absolute path of the worktree (under the git directory). */
  dir: string;
  /** The session's branch (`fixcycle/<session id>`). */
  branch: string;
  /** The user's branch the session started from (`refs/heads/main`): the fixes come back to it. */
  user_branch: string;
  /** The user's HEAD at the start. */
  base: string;
  /** The commit the loop started from: `base`, or a commit of the user's uncommitted changes on top of it. */
  snapshot: string;
  /** Set once the session ended with fixes to bring back. */
  handback?: HandBackRecord;
}
