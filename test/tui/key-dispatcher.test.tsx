import { afterEach, describe, expect, it, vi } from 'vitest';
import { App } from '../../src/app.js';
import { KEYS, renderTui } from './render.js';
import { RecordingControls } from './recording-controls.js';
import { createFixcycleStore } from '../../src/state/store.js';
import { IntentControls } from '../../src/tui/intent-controls.js';
import { awaitingApprovalStore, failureStore, pendingStore, runningStore } from './scenarios.js';

let unmount: (() => void) | undefined;
afterEach(() => unmount?.());

function app(
  store = runningStore(),
  controls: RecordingControls | null = new RecordingControls(),
  size = { columns: 120, rows: 40 },
) {
  const onQuit = vi.fn();
  const view = renderTui(<App onQuit={onQuit} />, { ...size, store, controls });
  unmount = view.unmount;
  return { ...view, controls, onQuit, status: () => view.lines().at(-1) ?? '' };
}

describe('keys that act on the loop', () => {
  it('a approves a partial success awaiting approval', async () => {
    const t = app(awaitingApprovalStore());
    await t.press('a');
    expect(t.controls!.calls).toEqual(['approve']);
    expect(t.status()).toContain('Approved: the session completes as a partial success');
  });

  it('a says why when nothing awaits approval, and calls nothing', async () => {
    const t = app();
    await t.press('a');
    expect(t.controls!.calls).toEqual([]);
    expect(t.status()).toContain('Nothing to approve: approval is asked only for a partial success');
  });

  it("a shows the loop's own reason when it refuses", async () => {
    const t = app(awaitingApprovalStore());
    t.controls!.approveAnswer = 'nothing to approve: the approval was already answered';
    await t.press('a');
    expect(t.status()).toContain('nothing to approve: the approval was already answered');
  });

  it('r asks first, and y rolls back the last committed iteration', async () => {
    const t = app();
    await t.press('r');
    expect(t.text()).toContain('Roll back iteration 1 (1bd3769)? It is reverted after the current step.');
    expect(t.text()).toMatch(/y rolls it back · n keeps it/);
    expect(t.controls!.calls).toEqual([]);
    await t.press('y');
    expect(t.controls!.calls).toEqual(['rollback']);
    expect(t.status()).toContain('Rolling back iteration 1 after the current step');
    expect(t.text()).not.toContain('y rolls it back');
  });

  it('r then n rolls nothing back', async () => {
    const t = app();
    await t.press('r');
    await t.press('n');
    expect(t.controls!.calls).toEqual([]);
    expect(t.status()).toContain('Nothing rolled back');
  });

  it('a question takes no other key, and says which it wants', async () => {
    const t = app();
    await t.press('r');
    await t.press('p');
    expect(t.controls!.calls).toEqual([]);
    expect(t.status()).toContain('Answer first: y rolls back, n cancels');
  });

  it('r says why when no iteration has a fix commit', async () => {
    const t = app(pendingStore());
    await t.press('r');
    expect(t.status()).toContain('Nothing to roll back: no iteration has a fix commit yet');
  });

  it('p pauses after the current step and p again resumes', async () => {
    const t = app();
    await t.press('p');
    expect(t.status()).toContain('Pausing after the current step: p resumes');
    await t.press('p');
    expect(t.controls!.calls).toEqual(['pause', 'pause']);
    expect(t.status()).toContain('Resumed');
  });

  it('p says the session has ended once it is done', async () => {
    const t = app(failureStore());
    await t.press('p');
    expect(t.controls!.calls).toEqual([]);
    expect(t.status()).toContain('The session has ended: nothing to pause');
  });

  it('without controls, a, r and p say where they work', async () => {
    const t = app(awaitingApprovalStore(), null);
    await t.press('a');
    expect(t.status()).toContain('approve from fixcycle watch or fixcycle pane');
    await t.press('r');
    expect(t.status()).toContain('roll back from fixcycle watch or fixcycle pane');
    await t.press('p');
    expect(t.status()).toContain('pause from fixcycle watch or fixcycle pane');
  });

  it('on a session nothing drives, a and r say the command that acts, send nothing, and q leaves at once', async () => {
    const controls = new RecordingControls();
    const why = 'No fixcycle process drives WFS-test-checkout now: fixcycle run --resume-session WFS-test-checkout';
    Object.assign(controls, { remote: true, unreachable: () => why });
    const t = app(awaitingApprovalStore(), controls, { columns: 140, rows: 40 });
    expect(t.text().replace(/\n/g, ' ')).toContain(
      'Approve with fixcycle run --resume-session WFS-test-checkout --yes',
    );
    await t.press('a');
    expect(t.status()).toContain(why);
    await t.press('r');
    expect(t.status()).toContain(why);
    expect(controls.calls).toEqual([]);
    await t.press('q');
    expect(t.onQuit).toHaveBeenCalled();
  });

  it('+ and - give the running loop one iteration more or fewer, and say the new max', async () => {
    const t = app();
    await t.press('+');
    expect(t.controls!.calls).toEqual(['more-iterations']);
    expect(t.status()).toContain('Iterations: up to 6 (one more)');
    await t.press('-');
    expect(t.controls!.calls).toEqual(['more-iterations', 'fewer-iterations']);
    expect(t.status()).toContain('Iterations: up to 4 (one fewer)');
  });

  it('+ on an ended session says how to give it more, and calls nothing', async () => {
    const t = app(failureStore());
    await t.press('+');
    expect(t.controls!.calls).toEqual([]);
    expect(t.status()).toContain('The session has ended: fixcycle run --resume-session with --max-iterations');
  });

  it('the waiting pane, with no session yet, answers p with why, never "Resumed"', async () => {
    const pane = new IntentControls(
      () => null,
      'fixcycle pane %1',
      () => undefined,
    );
    const t = app(createFixcycleStore(), pane as unknown as RecordingControls);
    await t.press('p');
    expect(t.status()).toContain('No session to act on: waiting for one to start');
    expect(t.status()).not.toContain('Resumed');
    await t.press('+');
    expect(t.status()).toContain('No session to act on: waiting for one to start');
  });

  it('p is refused while the session waits for approval', async () => {
    const t = app(awaitingApprovalStore());
    await t.press('p');
    expect(t.controls!.calls).toEqual([]);
    expect(t.status()).toContain('The session waits for approval: nothing runs to pause');
  });
});

describe('quitting', () => {
  it('q asks while the loop works; y stops it and leaves once the loop is done', async () => {
    const t = app();
    await t.press('q');
    expect(t.text()).toContain('Stop the loop now and leave? The running step is cancelled; the session stays');
    expect(t.text()).toContain('y stops and leaves · n goes on · esc goes on too');
    await t.press('y');
    expect(t.controls!.calls).toEqual(['stop']);
    expect(t.status()).toContain('Stopping: the running step is cancelled… q leaves now');
    expect(t.onQuit).not.toHaveBeenCalled();
    t.store
      .getState()
      .apply({ type: 'done', outcome: 'interrupted', reason: 'stopped by the user', exitCode: 130, passRate: 82.5 });
    expect(t.onQuit).toHaveBeenCalledTimes(1);
  });

  it('q then n keeps the loop going', async () => {
    const t = app();
    await t.press('q');
    await t.press('n');
    expect(t.controls!.calls).toEqual([]);
    expect(t.onQuit).not.toHaveBeenCalled();
    expect(t.status()).toContain('The loop goes on');
  });

  it('ctrl+c twice stops the loop', async () => {
    const t = app();
    await t.press(KEYS.ctrlC);
    await t.press(KEYS.ctrlC);
    expect(t.controls!.calls).toEqual(['stop']);
  });

  it('q quits at once when the session is done', async () => {
    const t = app(failureStore());
    await t.press('q');
    expect(t.onQuit).toHaveBeenCalledTimes(1);
  });

  it('q quits at once in watch mode: nothing here drives the loop', async () => {
    const t = app(runningStore(), null);
    await t.press('q');
    expect(t.onQuit).toHaveBeenCalledTimes(1);
  });
});

describe('keys that move around', () => {
  it('k scrolls the output up and holds it; f follows again', async () => {
    const store = runningStore();
    store.getState().apply({ type: 'output', lines: Array.from({ length: 100 }, (_, i) => `line ${i + 1}`) });
    const t = app(store);
    await t.waitFor('line 100');
    await t.press('k');
    expect(await t.waitFor('held at')).not.toContain('line 100');
    await t.press(KEYS.pageUp);
    expect(t.text()).toMatch(/held at \d+-\d+ of 104/);
    await t.press('f');
    expect(await t.waitFor('following')).toContain('line 100');
  });

  it('tab moves focus to the iterations, j/k move the cursor, enter opens it and esc closes', async () => {
    const t = app();
    await t.press(KEYS.tab);
    expect(t.text()).toContain('▸ Iterations');
    await t.press('k');
    expect(t.text()).toMatch(/^› 1 /m);
    await t.press(KEYS.enter);
    expect(await t.waitFor('Analysis · .process/iteration-1-analysis.md')).toContain('▸ Iteration 1');
    await t.press(KEYS.escape);
    expect(await t.waitFor('Phases')).not.toContain('▸ Iteration 1 ');
  });

  it('shift+tab moves focus back', async () => {
    const t = app();
    await t.press(KEYS.shiftTab);
    expect(t.text()).toContain('▸ Failures');
  });

  it('? opens help generated from the key table, esc closes it', async () => {
    const t = app();
    await t.press('?');
    // Running, not awaiting approval: the help lists roll back and pause, not approve.
    expect(t.text()).toContain('roll back the last committed iteration');
    expect(t.text()).not.toContain('approve the partial success');
    await t.press('a');
    expect(t.controls!.calls).toEqual([]);
    expect(t.status()).toContain('Help is open: esc closes it');
    await t.press(KEYS.escape);
    expect(t.text()).toContain('Phases');
  });

  it('says why a key does nothing', async () => {
    // No failure yet: j in the failures pane has no group to move to and nothing to scroll.
    const t = app(pendingStore());
    await t.press('x');
    expect(t.status()).toContain('"x" does nothing here: ? lists the keys');
    await t.press(KEYS.escape);
    expect(t.status()).toContain('Nothing to close');
    await t.press(KEYS.tab);
    await t.press(KEYS.tab);
    await t.press('j');
    expect(t.status()).toContain('Nothing to scroll: the failures fit in the pane');
  });

  it('enter says there is nothing to open before the first iteration', async () => {
    const t = app(pendingStore());
    await t.press(KEYS.enter);
    expect(t.status()).toContain('No iteration to open yet');
  });

  it('works the same in the compact layout', async () => {
    const t = app(runningStore(), new RecordingControls(), { columns: 60, rows: 20 });
    await t.press(KEYS.shiftTab);
    expect(t.text()).toContain('▸ Failures');
    await t.press('p');
    expect(t.controls!.calls).toEqual(['pause']);
  });
});
