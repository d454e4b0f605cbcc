import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { IsolationError } from './session-worktree.js';

/**
 * The session's worktree was removed while the loop ran (by hand, or by a cleaner of the temporary folder): what
 * the loop saw there afterwards is not the code, so nothing of it is recorded and the session stays resumable.
 */
export class WorktreeGoneError extends IsolationError {}

/**
 * Throws a WorktreeGoneError when the loop's own worktree (`root`, not the user's tree: `inPlace` false) is gone.
 * Checked before a step's outcome is saved: a test run or an agent in a deleted folder fails for that alone.
 */
export function assertWorktreeHere(root: string, inPlace: boolean | undefined, sessionId: string): void {
  if (inPlace || existsSync(join(root, '.git'))) return;
  throw new WorktreeGoneError(
    `the session's worktree ${root} was removed while the loop ran: nothing of yours was touched and the fixes committed so far are on its branch; resume with \`fixcycle run --resume-session ${sessionId}\`, which makes it again`,
  );
}
