import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { LoopControls } from '../engine/events.js';
import { appendIntent, type IntentAction, type IntentRecord } from '../engine/intents/intent-file.js';

/** The session a pane shows, as far as its keys are concerned. */
export interface FollowedSession {
  id: string;
  dir: string;
}

/**
 * The keys of a pane, for a session another process drives: each becomes an intent appended to the
 * session's intents file, which that process applies once and answers in iteration-state.json.
 * The calls return at once; `onError` says in one line when the intent could not be written.
 */
export class IntentControls implements LoopControls {
  readonly remote = true;
  /** Ids of intents this pane sent, waiting for their answer. */
  readonly sent = new Map<string, IntentAction>();
  private pausedLocally = false;

  constructor(
    private readonly followed: () => FollowedSession | null,
    private readonly by: string,
    private readonly onError: (text: string) => void,
    /** Takes the fixes waiting on an ended session's branch, in this process (no loop is left to send it to). */
    private readonly take?: (sessionId: string) => Promise<string | null>,
  ) {}

  takeFixes(): string | null {
    const session = this.followed();
    if (!session) return 'No session to act on: waiting for one to start';
    if (!this.take) return 'No key here can take the fixes: run the command shown';
    this.take(session.id).then(
      (why) => why && this.onError(why),
      (error: Error) => this.onError(`could not take the fixes of ${session.id}: ${error.message.split('\n')[0]}`),
    );
    return null;
  }

  private lockSeen = { dir: '', at: 0, held: false };

  /** A session without the lock of a fixcycle process applies no intent: say the command that acts on it. */
  unreachable(): string | null {
    const session = this.followed();
    if (!session) return 'No session to act on: waiting for one to start';
    // 500 ms: the footer asks on every frame; a lock taken or dropped shows within half a second.
    const now = Date.now();
    if (this.lockSeen.dir !== session.dir || now - this.lockSeen.at > 500)
      this.lockSeen = { dir: session.dir, at: now, held: existsSync(join(session.dir, '.lock')) };
    if (this.lockSeen.held) return null;
    return `No fixcycle process drives ${session.id} now: fixcycle run --resume-session ${session.id} goes on with it (--yes approves)`;
  }

  private send(action: IntentAction): string | null {
    const session = this.followed();
    if (!session) return 'No session to act on: waiting for one to start';
    const id = randomUUID();
    this.sent.set(id, action);
    appendIntent(session.dir, session.id, action, this.by, id).catch((error: NodeJS.ErrnoException) => {
      this.sent.delete(id);
      this.onError(
        `could not send ${action} to ${session.id}: ${error.code === 'ENOENT' ? 'its folder is gone' : error.message}`,
      );
    });
    return null;
  }

  approve(): string | null {
    return this.send('approve');
  }

  requestRollback(): string | null {
    return this.send('rollback');
  }

  togglePause(): boolean {
    const want = !this.pausedLocally;
    if (this.send(want ? 'pause' : 'resume') === null) this.pausedLocally = want;
    return this.pausedLocally;
  }

  stop(): void {
    this.send('stop');
  }

  changeMaxIterations(delta: 1 | -1): string | null {
    return this.send(delta > 0 ? 'more-iterations' : 'fewer-iterations');
  }

  /** A new session is shown: nothing of the last one's carries over. */
  reset(): void {
    this.sent.clear();
    this.pausedLocally = false;
  }

  /** Answers to this pane's intents found in a state's `intents`; each is returned once. */
  takeAnswers(records: unknown): IntentRecord[] {
    if (!Array.isArray(records) || this.sent.size === 0) return [];
    const answers: IntentRecord[] = [];
    for (const r of records as IntentRecord[]) {
      if (r && typeof r.id === 'string' && this.sent.has(r.id)) {
        this.sent.delete(r.id);
        if (r.action === 'pause' || r.action === 'resume')
          this.pausedLocally = r.applied ? r.action === 'pause' : this.pausedLocally;
        answers.push(r);
      }
    }
    return answers;
  }
}
