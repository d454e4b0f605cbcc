import { afterEach, describe, expect, it } from 'vitest';
import { StatusLine } from '../../src/components/status-line.js';
import { overflowing, renderTui } from '../tui/render.js';
import { RecordingControls } from '../tui/recording-controls.js';
import { awaitingApprovalStore, failureStore, pendingStore, runningStore } from '../tui/scenarios.js';
import { NARROW_SIZES, SIZES } from './sizes.js';

let unmount: (() => void) | undefined;
afterEach(() => unmount?.());

function show(
  store: ReturnType<typeof pendingStore>,
  options: { columns?: number; controls?: RecordingControls | null; ui?: object } = {},
) {
  const columns = options.columns ?? 120;
  const view = renderTui(<StatusLine width={columns} compact={columns < 80} />, {
    columns,
    rows: 40,
    store,
    controls: options.controls === undefined ? new RecordingControls() : options.controls,
    ui: options.ui,
  });
  unmount = view.unmount;
  return view;
}

describe('StatusLine', () => {
  it('shows session id, agent chain, elapsed time and the keys that matter while working', () => {
    const text = show(runningStore()).text();
    expect(text).toMatch(/^WFS-test-checkout · claude → codex · iteration 2\/5 · \d+s │ /);
    // The iteration and its clock take room: the hints that give way go first, whole.
    expect(text).toContain('│ r roll back · p pause · f hold · ? help · q quit');
    expect(text).not.toContain('a approve');
  });

  it("shows the iteration against its max, the running iteration's time and the spending against --budget", () => {
    const store = runningStore();
    const state = store.getState().state!;
    const started = new Date(Date.now() - 41_000).toISOString();
    const iterations = state.iterations.map((it) => (it.iteration === 2 ? { ...it, started_at: started } : it));
    store.getState().apply({ type: 'state', state: { ...state, iterations } });
    store.getState().apply({
      type: 'session',
      sessionId: 'WFS-test-checkout',
      sessionDir: '/tmp/x',
      repo: '/tmp',
      chain: ['claude'],
      testCommand: 'node --test',
      resumed: true,
      budget: { usd: 2 },
    });
    const call = { type: 'agent', agent: 'claude', role: 'analyze', status: 'finished', classification: 'ok' } as const;
    store.getState().apply({ ...call, iteration: 1, tokens: 12_000, costUsd: 0.25 });
    store.getState().apply({ ...call, iteration: 2, tokens: 300, costUsd: 0.16 });
    expect(show(store).text()).toMatch(/ · iteration 2\/5 4[12]s · 12,300 tokens · \$0\.41\/\$2 · /);
  });

  it('says when the counts did not come from a report', () => {
    const store = runningStore();
    const results = store.getState().results;
    expect(show(store).text()).not.toContain('counts:');
    unmount?.();
    store.getState().apply({ type: 'results', iteration: 1, results: { ...results!, source: 'exit-code' } });
    expect(show(store).text()).toContain(' · counts: exit code only · ');
  });

  it('names a part of the test command the session leaves out because it cannot run here', () => {
    const store = runningStore();
    const state = store.getState().state!;
    store.getState().apply({
      type: 'state',
      state: {
        ...state,
        parts_not_run: [{ name: 'test-headless', command: ['npm', 'run', 'test-headless'], needs: 'a browser' }],
      },
    });
    expect(show(store).text()).toContain(' · not run here: test-headless · ');
  });

  it('offers approval first when a partial success awaits it', () => {
    expect(show(awaitingApprovalStore()).text()).toContain('│ a approve · r roll back · p pause');
  });

  it('offers resume while paused', () => {
    const store = runningStore();
    store.getState().apply({ type: 'paused', paused: true });
    const text = show(store).text();
    expect(text).toContain(' · paused · ');
    expect(text).toContain('p resume');
  });

  it('drops loop keys once the session is done', () => {
    const text = show(failureStore()).text();
    expect(text).not.toContain('p pause');
    expect(text).not.toContain('r roll back');
    expect(text).toContain('q quit');
  });

  it('shows only the keys of an open question', () => {
    const text = show(runningStore(), { ui: { confirm: { kind: 'rollback', prompt: 'Roll back?' } } }).text();
    expect(text).toMatch(/│ y yes · n no$/);
  });

  it('shows why a key did nothing instead of the other hints, still ending with help and quit', () => {
    const text = show(runningStore(), { ui: { message: { text: 'Nothing to approve', tone: 'warn' } } }).text();
    expect(text).toContain('│ Nothing to approve · ? help · q quit');
    expect(text).not.toContain('p pause');
  });

  it('counts down while fixcycle waits out a rate limit', () => {
    const store = runningStore();
    store.getState().apply({
      type: 'wait',
      iteration: 1,
      agent: 'claude',
      untilMs: Date.now() + 42_000,
      waitMs: 42_000,
      reason: "claude's rate limit to reset",
    });
    const text = show(store).text();
    expect(text).toMatch(/│ claude rate-limited: waiting 4[12]s · \? help · q quit$/);
    unmount?.();
    store
      .getState()
      .apply({ type: 'wait', iteration: 1, agent: 'claude', untilMs: null, reason: "claude's rate limit to reset" });
    expect(show(store).text()).not.toContain('rate-limited');
  });

  it('says watch mode and offers no loop keys without controls', () => {
    const text = show(runningStore(), { controls: null }).text();
    expect(text).toContain(' · watch · ');
    expect(text).not.toContain('p pause');
  });

  it('says starting before the session exists', () => {
    const view = renderTui(<StatusLine width={80} />, { columns: 80, rows: 24, controls: new RecordingControls() });
    unmount = view.unmount;
    expect(view.text()).toMatch(/^starting · 0s │/);
  });

  for (const size of SIZES) {
    it(`stays on one line at ${size.name}`, () => {
      const view = show(awaitingApprovalStore(), { columns: size.columns });
      expect(view.lines()).toHaveLength(1);
      expect(overflowing(view.text(), size.columns)).toEqual([]);
    });
  }

  describe('in a narrow pane', () => {
    const waitingStore = () => {
      const store = runningStore();
      store.getState().apply({
        type: 'wait',
        iteration: 1,
        agent: 'claude',
        untilMs: Date.now() + 600_000,
        reason: "claude's rate limit to reset",
      });
      return store;
    };
    const cases = [
      ['working', () => runningStore(), {}],
      ['awaiting approval', () => awaitingApprovalStore(), {}],
      ['done', () => failureStore(), {}],
      [
        'showing a message',
        () => runningStore(),
        { ui: { message: { text: 'No committed fix to roll back yet: wait for the first commit', tone: 'warn' } } },
      ],
      ['waiting out a rate limit', waitingStore, {}],
      ['in watch mode', () => runningStore(), { controls: null }],
    ] as const;
    for (const size of [...NARROW_SIZES, { columns: 80, rows: 24, name: '80x24' }]) {
      for (const [name, store, options] of cases) {
        it(`never cuts "? help · q quit" at ${size.name} while ${name}`, () => {
          const view = show(store(), { columns: size.columns, ...(options as object) });
          expect(view.lines()).toHaveLength(1);
          expect(view.text().trimEnd()).toMatch(/ · \? help · q quit$|│ \? help · q quit$/);
          expect(overflowing(view.text(), size.columns)).toEqual([]);
        });
      }
    }

    it('drops whole hints, never half of one, and keeps the session id while there is room', () => {
      const text = show(runningStore(), { columns: 60 }).text();
      expect(text).toMatch(/^WFS-test-checkout · iteration 2\/5 · \d+s │ /);
      const hints = text.split(' │ ')[1]!.split(' · ');
      for (const hint of hints)
        expect(['r roll back', 'p pause', 'f hold', 'enter open', 'tab focus', '? help', 'q quit']).toContain(hint);
      expect(hints.slice(-2)).toEqual(['? help', 'q quit']);
    });

    it('shortens the session id rather than the keys at 40 columns', () => {
      const text = show(runningStore(), { columns: 40 }).text();
      expect(text).toMatch(/^WFS-test-.*│ \? help · q quit$/);
    });
  });
});
