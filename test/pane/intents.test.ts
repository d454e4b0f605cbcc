import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EngineEvent } from '../../src/engine/events.js';
import { watchIntents, type IntentTarget, type IntentWatcher } from '../../src/engine/intents/apply-intents.js';
import { appendIntent, intentsPath, type IntentRecord } from '../../src/engine/intents/intent-file.js';
import { UserControls } from '../../src/engine/loop/controls.js';
import { IntentControls } from '../../src/tui/intent-controls.js';

const ID = 'WFS-test-now';
let dir: string;
let events: EngineEvent[];
let records: IntentRecord[];
let controls: UserControls;
let awaiting: boolean;
let watcher: IntentWatcher | undefined;

beforeEach(() => {
  dir = join(mkdtempSync(join(tmpdir(), 'fixcycle-intents-')), ID);
  mkdirSync(join(dir, '.process'), { recursive: true });
  events = [];
  records = [];
  awaiting = false;
  controls = new UserControls((e) => events.push(e));
});
afterEach(() => {
  watcher?.stop();
  rmSync(dir, { recursive: true, force: true });
});

function target(answered: string[] = []): IntentTarget {
  return {
    sessionId: ID,
    controls,
    awaitingApproval: () => awaiting,
    answered: () => new Set([...answered, ...records.map((r) => r.id)]),
    record: async (entry) => void records.push(entry),
  };
}

/** Lets every pass run out: the watcher's own poll and fs.watch may be mid-pass when a test asks for one. */
async function drain() {
  for (let i = 0; i < 3; i++) {
    await watcher!.check();
    await new Promise((r) => setTimeout(r, 30));
  }
}

const logs = () => events.flatMap((e) => (e.type === 'log' ? [e.message] : []));

describe('intents from panes', () => {
  it('applies an approval once, records who, and tells a second pane approving at once that it was too late', async () => {
    watcher = watchIntents(dir, target(), (e) => events.push(e), { pollMs: 20 });
    await drain();
    awaiting = true;
    const answer = controls.waitForApproval();
    const one = await appendIntent(dir, ID, 'approve', 'fixcycle pane %1 (pid 1)');
    const two = await appendIntent(dir, ID, 'approve', 'fixcycle pane %2 (pid 2)');
    await drain();
    expect(await answer).toBe('approve');
    expect(controls.approvedBy).toBe('fixcycle pane %1 (pid 1)');
    expect(records).toEqual([
      expect.objectContaining({ id: one.id, applied: true }),
      expect.objectContaining({ id: two.id, applied: false, note: 'already approved by fixcycle pane %1 (pid 1)' }),
    ]);
    // The second pane reads its answer from the state and says it.
    const pane = new IntentControls(
      () => ({ id: ID, dir }),
      'fixcycle pane %2 (pid 2)',
      () => undefined,
    );
    pane.sent.set(two.id, 'approve');
    expect(pane.takeAnswers(records)).toEqual([
      expect.objectContaining({ applied: false, note: expect.stringContaining('already approved') }),
    ]);
    expect(pane.takeAnswers(records)).toEqual([]);
  });

  it('waits for the loop to ask before applying an approval that came early', async () => {
    watcher = watchIntents(dir, target(), (e) => events.push(e), { pollMs: 20 });
    await drain();
    awaiting = true;
    await appendIntent(dir, ID, 'approve', 'pane');
    await drain();
    expect(records).toEqual([]);
    const answer = controls.waitForApproval();
    await drain();
    expect(await answer).toBe('approve');
    expect(records).toEqual([expect.objectContaining({ applied: true })]);
  });

  it('skips garbage lines with a one-line message and loses none of the intents around them', async () => {
    watcher = watchIntents(dir, target(), (e) => events.push(e), { pollMs: 20 });
    await drain();
    const pause = await appendIntent(dir, ID, 'pause', 'pane');
    appendFileSync(
      intentsPath(dir),
      'this is not json\n{"id":"x","session_id":"WFS-test-now","action":"explode"}\n[1,2]\n',
    );
    const resume = await appendIntent(dir, ID, 'resume', 'pane');
    await drain();
    expect(records.map((r) => [r.id, r.applied])).toEqual([
      [pause.id, true],
      [resume.id, true],
    ]);
    const skipped = logs().filter((m) => m.startsWith('intents.jsonl: skipped a line'));
    expect(skipped).toHaveLength(3);
    expect(skipped[1]).toContain('unknown action "explode"');
    for (const m of skipped) expect(m).not.toContain('\n');
    expect(controls.isPaused).toBe(false);
  });

  it('never applies an intent from before it started, one for another session, or one the session already answered', async () => {
    const before = await appendIntent(dir, ID, 'stop', 'pane');
    const answeredEarlier = '0f0f0f0f-answered';
    watcher = watchIntents(dir, target([answeredEarlier]), (e) => events.push(e), { pollMs: 20 });
    await drain();
    await appendIntent(dir, 'WFS-test-earlier', 'stop', 'an old pane');
    await appendIntent(dir, ID, 'stop', 'pane', answeredEarlier);
    await drain();
    expect(controls.stopped).toBe(false);
    expect(records).toEqual([expect.objectContaining({ applied: false, note: 'meant for session WFS-test-earlier' })]);
    expect(records.some((r) => r.id === before.id)).toBe(false);
    expect(logs().some((m) => m.includes('meant for session WFS-test-earlier'))).toBe(true);
  });

  it('says why a rollback cannot be done', async () => {
    watcher = watchIntents(dir, target(), (e) => events.push(e), { pollMs: 20 });
    await drain();
    await appendIntent(dir, ID, 'rollback', 'pane');
    await drain();
    expect(records).toEqual([
      expect.objectContaining({ action: 'rollback', applied: false, note: 'no committed fix to roll back yet' }),
    ]);
  });
});
