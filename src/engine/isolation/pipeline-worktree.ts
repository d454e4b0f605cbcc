import type { EngineEvent, EventSink } from '../events.js';
import type { Repo } from '../git.js';
import { dropJournal, journalPath } from './handback-journal.js';
import { finishIsolatedSession, isolateNewSession, reopenIsolatedSession } from './session-isolation.js';
import type { SessionWorktree } from './types.js';

/** Where a pipeline (gen, team) records its worktree: its own state, saved by `save`. */
export interface WorktreeHolder {
  worktree?: SessionWorktree | undefined;
}

/**
 * The repository a pipeline works in: the session's worktree (made from the user's HEAD and uncommitted files as
 * they are now, or reopened on a resume), or the user's own with --in-place and for a session begun in place. The
 * worktree is recorded before anything runs there, so a stop from here on resumes in it. `who`: `gen`, `team`.
 */
export async function pipelineWorkRepo(input: {
  repo: Repo;
  id: string;
  holder: WorktreeHolder;
  isolated: boolean;
  /** The session did work already (a worktree made again is news only then). */
  begun: boolean;
  who: string;
  save: () => Promise<void>;
}): Promise<{ work: Repo; notes: EngineEvent[] }> {
  const { repo, holder } = input;
  if (holder.worktree) {
    const made = await reopenIsolatedSession(repo, holder.worktree, input.begun);
    return { work: made.work, notes: made.notes };
  }
  if (!input.isolated) return { work: repo, notes: [] };
  const made = await isolateNewSession(repo, input.id);
  holder.worktree = made.record;
  await input.save();
  const notes = made.notes.map((note) =>
    note.type === 'log' ? { ...note, message: note.message.replace(/^the loop works/, `${input.who} works`) } : note,
  );
  return { work: made.work, notes };
}

/**
 * The end of a pipeline session that ran in its own worktree: what it committed comes back to the user's branch as
 * a run's fixes do (fast-forward, else replayed; three-way into files the user changed meanwhile; left on the
 * session's branch on a conflict or with --no-apply), and the worktree goes. A session not ended (stopped,
 * --plan-only) keeps its worktree for the resume.
 */
export async function finishPipelineWorktree(input: {
  repo: Repo;
  /** The session's folder for the hand-back's journal. */
  processDir: string;
  holder: WorktreeHolder;
  ended: boolean;
  apply: boolean;
  who: string;
  save: () => Promise<void>;
  emit: EventSink;
}): Promise<void> {
  const { holder } = input;
  const record = holder.worktree;
  if (!record) return;
  if (!input.ended) {
    input.emit({
      type: 'log',
      level: 'info',
      message: `${input.who}'s worktree stays at ${record.dir} (branch ${record.branch}) until the session is resumed and ends`,
    });
    return;
  }
  const journal = journalPath(input.processDir);
  await finishIsolatedSession(
    input.repo,
    record,
    {
      ended: true,
      succeeded: true,
      apply: input.apply,
      journal,
      keep: async (handback) => {
        holder.worktree = { ...record, handback };
        await input.save();
        await dropJournal(journal);
      },
    },
    input.emit,
  );
  await dropJournal(journal);
}
