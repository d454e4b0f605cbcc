import type { EngineEvent, EventSink } from '../events.js';
import type { Repo } from '../git.js';
import { dropJournal, journalPath } from '../isolation/handback-journal.js';
import { finishIsolatedSession, isolateNewSession, reopenIsolatedSession } from '../isolation/session-isolation.js';
import type { SessionWorktree } from '../isolation/types.js';
import type { SessionFiles } from '../session/session-files.js';
import type { GenState } from './state.js';

/**
 * The repository gen works in: the session's worktree (made from the user's HEAD and uncommitted files as they are
 * now, or reopened on a resume), or the user's own with --in-place and for a session begun in place. The worktree
 * is recorded in the state before anything runs there, so a stop from here on resumes in it.
 */
export async function genWorkRepo(input: {
  repo: Repo;
  id: string;
  state: GenState;
  isolated: boolean;
  save: () => Promise<void>;
}): Promise<{ work: Repo; notes: EngineEvent[] }> {
  const { repo, state } = input;
  if (state.worktree) {
    const made = await reopenIsolatedSession(repo, state.worktree as SessionWorktree, state.phases_done.length > 0);
    return { work: made.work, notes: made.notes };
  }
  if (!input.isolated) return { work: repo, notes: [] };
  const made = await isolateNewSession(repo, input.id);
  state.worktree = made.record;
  await input.save();
  const notes = made.notes.map((note) =>
    note.type === 'log' ? { ...note, message: note.message.replace(/^the loop works/, 'gen works') } : note,
  );
  return { work: made.work, notes };
}

/**
 * The end of a gen session that ran in its own worktree: what it committed (the kept tests, the fix loop's fixes,
 * the settle step's) comes back to the user's branch as a run's fixes do (fast-forward, else replayed; three-way
 * into files the user changed meanwhile; left on the session's branch on a conflict or with --no-apply), and the
 * worktree goes. A session not ended (stopped, --plan-only) keeps its worktree for the resume.
 */
export async function finishGenWorktree(input: {
  repo: Repo;
  session: SessionFiles;
  state: GenState;
  apply: boolean;
  save: () => Promise<void>;
  emit: EventSink;
}): Promise<void> {
  const { state } = input;
  const record = state.worktree as SessionWorktree | undefined;
  if (!record) return;
  if (state.step !== 'done') {
    input.emit({
      type: 'log',
      level: 'info',
      message: `gen's worktree stays at ${record.dir} (branch ${record.branch}) until the session is resumed and ends`,
    });
    return;
  }
  const journal = journalPath(input.session.paths.processDir);
  await finishIsolatedSession(
    input.repo,
    record,
    {
      ended: true,
      succeeded: true,
      apply: input.apply,
      journal,
      keep: async (handback) => {
        state.worktree = { ...record, handback };
        await input.save();
        await dropJournal(journal);
      },
    },
    input.emit,
  );
  await dropJournal(journal);
}
