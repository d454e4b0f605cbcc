import type { EngineEvent, EventSink } from './events.js';
import type { Repo } from './git.js';
import { dropJournal, journalPath } from './isolation/handback-journal.js';
import { finishIsolatedSession } from './isolation/session-isolation.js';
import type { SessionWorktree } from './isolation/types.js';
import type { LoopResult } from './loop/completion-step.js';
import type { SessionFiles } from './session/session-files.js';

/** The end of an isolated session's run: its fixes come back, its worktree goes once it has ended. */
export interface SessionFinish {
  /** The sink the loop emits to: its `done` is held until the fixes came back, so it stays the last event. */
  emit: EventSink;
  /** After the loop's run: brings the fixes back, removes the worktree once the session ended, then says `done`. */
  finish(result: LoopResult): Promise<void>;
}

/**
 * `record`: the session's worktree as the start recorded it (none: the loop works in place, and its end is the
 * loop's alone). `worktreeMade`: was it made (a new session's first run, green in the user's tree, makes none)?
 */
export function sessionFinish(input: {
  repo: Repo;
  session: SessionFiles;
  record: SessionWorktree | undefined;
  apply: boolean;
  worktreeMade: () => boolean;
  emit: EventSink;
}): SessionFinish {
  const { repo, session, record: started, emit } = input;
  if (!started) return { emit, finish: async () => undefined };
  const held: EngineEvent[] = [];
  const journal = journalPath(session.paths.processDir);
  const finish = async (result: LoopResult): Promise<void> => {
    try {
      const final = await session.readState();
      const record = final.worktree ?? started;
      // Converged on every part that runs here (a part that cannot run was left out): the fixes pass what can
      // be run, so they come back as a success's do, and the end still names the part not run.
      const convergedHere = final.stopped_by === 'part_not_run';
      await finishIsolatedSession(
        repo,
        record,
        {
          ended: final.status === 'completed' || final.status === 'partial_success' || convergedHere,
          succeeded: result.outcome === 'success' || result.outcome === 'partial_success' || convergedHere,
          apply: input.apply,
          journal,
          worktreeMade: input.worktreeMade(),
          keep: async (handback) => {
            await session.saveState({ ...final, worktree: { ...record, handback } });
            await dropJournal(journal);
          },
        },
        emit,
      );
      // Also when a stopped start had recorded the hand-back but not yet dropped its journal.
      await dropJournal(journal);
    } finally {
      for (const event of held.splice(0)) emit(event);
    }
  };
  return { emit: (event) => (event.type === 'done' ? held.push(event) : emit(event)), finish };
}
