import { randomUUID } from 'node:crypto';
import { appendFile, open, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** What a pane can ask of the process driving a session. */
export const INTENT_ACTIONS = [
  'approve',
  'rollback',
  'pause',
  'resume',
  'stop',
  'more-iterations',
  'fewer-iterations',
] as const;
export type IntentAction = (typeof INTENT_ACTIONS)[number];

/** One line of `.process/intents.jsonl`: a key pressed in a pane, for the driving process to apply once. */
export interface Intent {
  id: string;
  session_id: string;
  action: IntentAction;
  /** Who asked, for the record (`fixcycle pane %3 (pid 4242)`). */
  by: string;
  at: string;
}

/** How the driving process answered an intent; kept in iteration-state.json under `intents`. */
export interface IntentRecord {
  id: string;
  action: IntentAction;
  by: string;
  applied: boolean;
  /** Why it was not applied (or what it did), in one line. */
  note?: string;
  at: string;
}

export function intentsPath(sessionDir: string): string {
  return join(sessionDir, '.process', 'intents.jsonl');
}

/**
 * Appends an intent. One line well under PIPE_BUF written by one append-mode write: panes writing at the
 * same time never interleave, and a reader sees either the whole line or none of it.
 */
export async function appendIntent(
  sessionDir: string,
  sessionId: string,
  action: IntentAction,
  by: string,
  id: string = randomUUID(),
): Promise<Intent> {
  const intent: Intent = { id, session_id: sessionId, action, by: by.slice(0, 200), at: new Date().toISOString() };
  await appendFile(intentsPath(sessionDir), JSON.stringify(intent) + '\n', { flag: 'a' });
  return intent;
}

export type ParsedIntent = { ok: true; intent: Intent } | { ok: false; error: string };

/** Reads one line; anything but a whole intent is a one-line reason to skip it. */
export function parseIntentLine(line: string): ParsedIntent {
  const shown = line.length > 40 ? `${line.slice(0, 40)}…` : line;
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    return { ok: false, error: `not JSON: ${shown}` };
  }
  const r = raw as Partial<Intent> | null;
  if (
    typeof r !== 'object' ||
    r === null ||
    typeof r.id !== 'string' ||
    typeof r.session_id !== 'string' ||
    typeof r.action !== 'string'
  ) {
    return { ok: false, error: `not an intent (needs id, session_id, action): ${shown}` };
  }
  if (!(INTENT_ACTIONS as readonly string[]).includes(r.action))
    return { ok: false, error: `unknown action "${r.action}" (known: ${INTENT_ACTIONS.join(', ')})` };
  return {
    ok: true,
    intent: {
      id: r.id,
      session_id: r.session_id,
      action: r.action as IntentAction,
      by: typeof r.by === 'string' ? r.by : 'unknown',
      at: typeof r.at === 'string' ? r.at : '',
    },
  };
}

/** The lines appended to the intents file since the last read; a torn last line waits for its end. */
export class IntentTail {
  private offset: number | null;
  private partial = '';

  /** `fromStart` false: only what is appended from now on counts (earlier lines were someone else's to apply). */
  constructor(
    readonly path: string,
    fromStart = false,
  ) {
    this.offset = fromStart ? 0 : null;
  }

  /** Sets the starting point at the file's current end. */
  async skipExisting(): Promise<void> {
    this.offset = (await stat(this.path).catch(() => null))?.size ?? 0;
  }

  async read(): Promise<string[]> {
    if (this.offset === null) await this.skipExisting();
    const info = await stat(this.path).catch(() => null);
    if (!info) return [];
    if (info.size < this.offset!) {
      // Truncated or replaced: what is there now is new.
      this.offset = 0;
      this.partial = '';
    }
    if (info.size === this.offset) return [];
    const handle = await open(this.path, 'r');
    try {
      const length = info.size - this.offset!;
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await handle.read(buffer, 0, length, this.offset!);
      this.offset! += bytesRead;
      const text = this.partial + buffer.subarray(0, bytesRead).toString('utf8');
      const lines = text.split('\n');
      this.partial = lines.pop() ?? '';
      return lines.filter((l) => l.trim() !== '');
    } finally {
      await handle.close();
    }
  }
}
