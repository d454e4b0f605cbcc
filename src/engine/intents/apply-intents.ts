import { dirname } from 'node:path';
import type { EventSink } from '../events.js';
import type { UserControls } from '../loop/controls.js';
import { serialPasses, watchAndPoll } from '../session/file-watch.js';
import { intentsPath, IntentTail, parseIntentLine, type Intent, type IntentRecord } from './intent-file.js';

/** What the intents act on: the running loop of one session. */
export interface IntentTarget {
  sessionId: string;
  controls: UserControls;
  /** The session waits for a decision at a partial success (saved, maybe not yet asked). */
  awaitingApproval(): boolean;
  /** Ids of intents the session already answered (from iteration-state.json), so a resume never applies one twice. */
  answered(): ReadonlySet<string>;
  /** Records the answer in iteration-state.json (saved at once). */
  record(entry: IntentRecord): Promise<void>;
}

export interface IntentWatcher {
  /** Reads and applies what is new now (tests, and the last pass before stopping). */
  check(): Promise<void>;
  stop(): void;
}

/** 200 ms: a key in a pane takes effect before the user looks back at it; a stat() costs nothing. */
const POLL_MS = 200;

/** Applies one intent; returns the record to keep, or null to try again on the next pass. */
function apply(intent: Intent, target: IntentTarget): Omit<IntentRecord, 'id' | 'action' | 'by' | 'at'> | null {
  const { controls } = target;
  switch (intent.action) {
    case 'approve': {
      if (controls.approvedBy) return { applied: false, note: `already approved by ${controls.approvedBy}` };
      if (!target.awaitingApproval())
        return { applied: false, note: 'nothing to approve: the session is not waiting for approval' };
      // Saved as awaiting but not asking yet: the next pass applies it.
      if (!controls.approvalOpen) return null;
      const why = controls.approve(intent.by);
      return why ? { applied: false, note: why } : { applied: true, note: 'approved' };
    }
    case 'rollback': {
      const why = controls.requestRollback();
      return why ? { applied: false, note: why } : { applied: true, note: 'rolling back after the current step' };
    }
    case 'pause':
    case 'resume': {
      const want = intent.action === 'pause';
      if (controls.isPaused === want) return { applied: false, note: want ? 'already paused' : 'not paused' };
      controls.togglePause();
      return { applied: true, note: want ? 'pausing after the current step' : 'resumed' };
    }
    case 'stop':
      controls.stop();
      return { applied: true, note: 'stopping: the running step is cancelled' };
    case 'more-iterations':
    case 'fewer-iterations': {
      const why = controls.changeMaxIterations(intent.action === 'more-iterations' ? 1 : -1);
      return why ? { applied: false, note: why } : { applied: true, note: 'max iterations changed' };
    }
  }
}

/**
 * Follows `.process/intents.jsonl` of the session a process drives and applies each intent once:
 * only lines appended after it started, only for this session, each id once (answers are recorded in
 * iteration-state.json). A line that is not an intent is skipped with a one-line message.
 */
export function watchIntents(
  sessionDir: string,
  target: IntentTarget,
  emit: EventSink,
  options: { pollMs?: number } = {},
): IntentWatcher {
  const path = intentsPath(sessionDir);
  const tail = new IntentTail(path);
  const ready = tail.skipExisting();
  const pending: Intent[] = [];

  const pass = async () => {
    await ready;
    for (const line of await tail.read()) {
      const parsed = parseIntentLine(line);
      if (!parsed.ok) {
        emit({ type: 'log', level: 'warn', message: `intents.jsonl: skipped a line (${parsed.error})` });
        continue;
      }
      pending.push(parsed.intent);
    }
    while (pending.length > 0) {
      const intent = pending[0]!;
      const base = { id: intent.id, action: intent.action, by: intent.by, at: new Date().toISOString() };
      if (target.answered().has(intent.id)) {
        pending.shift();
        continue;
      }
      if (intent.session_id !== target.sessionId) {
        pending.shift();
        emit({
          type: 'log',
          level: 'warn',
          message: `intents.jsonl: skipped ${intent.action} from ${intent.by}: it was meant for session ${intent.session_id}, not ${target.sessionId}`,
        });
        await target.record({ ...base, applied: false, note: `meant for session ${intent.session_id}` });
        continue;
      }
      const result = apply(intent, target);
      if (!result) return;
      pending.shift();
      emit({
        type: 'log',
        level: result.applied ? 'info' : 'warn',
        message: `${intent.action} from ${intent.by}: ${result.note}`,
      });
      await target.record({ ...base, ...result });
    }
  };

  const passes = serialPasses(pass, (error) =>
    emit({ type: 'log', level: 'warn', message: `cannot read intents: ${error.message}` }),
  );
  const unwatch = watchAndPoll(
    dirname(path),
    (name) => {
      if (!name || name === 'intents.jsonl') void passes.run();
    },
    options.pollMs ?? POLL_MS,
  );
  return {
    check: passes.run,
    stop() {
      passes.stop();
      unwatch();
    },
  };
}
