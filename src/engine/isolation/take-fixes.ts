import type { EventSink } from '../events.js';
import { Repo } from '../git.js';
import { SessionFiles } from '../session/session-files.js';
import { dropJournal, journalPath } from './handback-journal.js';
import { finishIsolatedSession } from './session-isolation.js';

/**
 * The `h` key of the TUI and the pane: brings the fixes that wait on an ended session's branch (--no-apply, or the
 * branch was switched) to the user's branch, as the hand-back at a success does, and records it. Returns why not.
 */
export async function takeWaitingFixes(root: string, sessionId: string, emit: EventSink): Promise<string | null> {
  const repo = await Repo.open(root);
  const session = new SessionFiles(repo.root, sessionId);
  const state = await session.readState();
  const record = state.worktree;
  if (record?.handback?.status !== 'waiting') return `no fixes wait on the branch of ${sessionId}`;
  const journal = journalPath(session.paths.processDir);
  await finishIsolatedSession(
    repo,
    record,
    {
      ended: true,
      succeeded: true,
      apply: true,
      journal,
      keep: async (handback) => {
        await session.saveState({ ...state, worktree: { ...record, handback } });
        await dropJournal(journal);
      },
    },
    emit,
  );
  return null;
}
