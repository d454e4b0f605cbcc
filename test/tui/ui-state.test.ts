import { describe, expect, it } from 'vitest';
import { initialUiState, uiReducer, visibleOutputTop, type UiAction, type UiState } from '../../src/state/ui-state.js';
import { createUiStore } from '../../src/state/ui-store.js';

const run = (actions: UiAction[], from: Partial<UiState> = {}) =>
  actions.reduce(uiReducer, { ...initialUiState, ...from });
// 1,000 lines pushed, the last 500 kept, a 20-row pane.
const window = { total: 1000, size: 500, height: 20 };

describe('uiReducer', () => {
  it('starts on the output, following the tail, with nothing open', () => {
    expect(initialUiState).toMatchObject({
      focus: 'output',
      follow: true,
      help: false,
      detail: null,
      confirm: null,
      message: null,
      stopping: false,
    });
    expect(visibleOutputTop(initialUiState, window)).toBe(980);
  });

  it('cycles focus both ways through output, iterations and failures', () => {
    expect(run([{ type: 'focus', direction: 1 }]).focus).toBe('iterations');
    expect(
      run([
        { type: 'focus', direction: 1 },
        { type: 'focus', direction: 1 },
        { type: 'focus', direction: 1 },
      ]).focus,
    ).toBe('output');
    expect(run([{ type: 'focus', direction: -1 }]).focus).toBe('failures');
  });

  it('scrolling up stops following and holds the view where it is', () => {
    const state = run([{ type: 'scroll-output', delta: -5, window }]);
    expect(state.follow).toBe(false);
    expect(visibleOutputTop(state, window)).toBe(975);
    // New lines arrive: the view stays on the same lines.
    expect(visibleOutputTop(state, { total: 1100, size: 500, height: 20 })).toBe(975);
  });

  it('never scrolls above the oldest kept line nor below the tail', () => {
    expect(visibleOutputTop(run([{ type: 'scroll-output', delta: -10_000, window }]), window)).toBe(500);
    expect(visibleOutputTop(run([{ type: 'scroll-output-edge', edge: 'top', window }]), window)).toBe(500);
    // Lines it held fell out of the buffer: it shows the oldest still there.
    const held = run([{ type: 'scroll-output-edge', edge: 'top', window }]);
    expect(visibleOutputTop(held, { total: 1200, size: 500, height: 20 })).toBe(700);
  });

  it('scrolling down to the end follows the tail again', () => {
    const state = run([
      { type: 'scroll-output', delta: -3, window },
      { type: 'scroll-output', delta: 3, window },
    ]);
    expect(state.follow).toBe(true);
    expect(
      run([
        { type: 'scroll-output', delta: -30, window },
        { type: 'scroll-output-edge', edge: 'bottom', window },
      ]).follow,
    ).toBe(true);
  });

  it('f holds the view where it is, and f again follows', () => {
    const held = run([{ type: 'toggle-follow', window }]);
    expect(held.follow).toBe(false);
    expect(visibleOutputTop(held, { ...window, total: 1010 })).toBe(980);
    expect(run([{ type: 'toggle-follow', window }], held).follow).toBe(true);
  });

  it('a short output is shown from its first line', () => {
    expect(visibleOutputTop(initialUiState, { total: 5, size: 5, height: 20 })).toBe(0);
  });

  it('moves the iteration cursor, and the last row means "the newest"', () => {
    const iterations = [1, 2, 3];
    expect(run([{ type: 'select-iteration', delta: -1, iterations }]).selected).toBe(2);
    expect(run([{ type: 'select-iteration', delta: -5, iterations }]).selected).toBe(1);
    expect(
      run([
        { type: 'select-iteration', delta: -1, iterations },
        { type: 'select-iteration', delta: 1, iterations },
      ]).selected,
    ).toBeNull();
    expect(run([{ type: 'select-iteration-edge', edge: 'top', iterations }]).selected).toBe(1);
    expect(run([{ type: 'select-iteration', delta: 1, iterations: [] }]).selected).toBeNull();
  });

  it('moves the failure group cursor and keeps its headline and tests in view', () => {
    // Two run error lines, then five groups of two lines, then five suspects: 17 lines in a 6-row pane.
    const spans = { starts: [2, 4, 6, 8, 10], lines: 17, height: 6 };
    const select = (delta: number): UiAction => ({ type: 'select-failure-group', delta, spans });
    // The first group shows the errors above it; the view follows the cursor down, two lines at a time.
    expect(run([select(0)])).toMatchObject({ failureGroup: 0, failuresTop: 0 });
    expect(run([select(1), select(1)])).toMatchObject({ failureGroup: 2, failuresTop: 2 });
    expect(run([select(1), select(1), select(1)])).toMatchObject({ failureGroup: 3, failuresTop: 4 });
    // The last group shows the suspects below it; going back up keeps the view until the cursor leaves it.
    expect(run([select(Infinity)])).toMatchObject({ failureGroup: 4, failuresTop: 10 });
    expect(run([select(Infinity), select(-1)])).toMatchObject({ failureGroup: 3, failuresTop: 8 });
    expect(run([select(-Infinity)], { failureGroup: 4, failuresTop: 10 })).toMatchObject({
      failureGroup: 0,
      failuresTop: 0,
    });
    // A cursor left past the groups of a newer run starts from the last one.
    expect(run([select(-1)], { failureGroup: 9 }).failureGroup).toBe(3);
    expect(run([{ type: 'select-failure-group', delta: 1, spans: { starts: [], lines: 2, height: 6 } }])).toEqual(
      initialUiState,
    );
  });

  it('scrolls the failures, the help and the iteration view within their ends', () => {
    expect(run([{ type: 'scroll-failures', delta: 50, max: 4 }]).failuresTop).toBe(4);
    expect(run([{ type: 'scroll-failures', delta: -Infinity, max: 4 }], { failuresTop: 3 }).failuresTop).toBe(0);
    expect(run([{ type: 'toggle-help' }, { type: 'scroll-help', delta: 3, max: 2 }]).helpTop).toBe(2);
    expect(
      run([
        { type: 'open-detail', iteration: 2 },
        { type: 'scroll-detail', delta: Infinity, max: 30 },
      ]).detail,
    ).toEqual({ iteration: 2, top: 30 });
    expect(run([{ type: 'scroll-detail', delta: 3, max: 30 }]).detail).toBeNull();
    expect(
      run([
        { type: 'open-failure-detail', failureId: 't::a' },
        { type: 'scroll-detail', delta: 5, max: 3 },
      ]).failureDetail,
    ).toEqual({ failureId: 't::a', top: 3 });
    expect(run([{ type: 'open-failure-detail', failureId: 't::a' }, { type: 'close' }]).failureDetail).toBeNull();
  });

  it('esc closes the innermost thing first: question, then iteration view, then help', () => {
    const open = run([
      { type: 'toggle-help' },
      { type: 'open-detail', iteration: 1 },
      { type: 'toggle-help' },
      { type: 'ask', confirm: { kind: 'quit', prompt: '?' } },
    ]);
    expect([open.help, open.detail, open.confirm]).toEqual([
      true,
      { iteration: 1, top: 0 },
      { kind: 'quit', prompt: '?' },
    ]);
    const once = uiReducer(open, { type: 'close' });
    expect(once.confirm).toBeNull();
    expect(once.detail).not.toBeNull();
    const twice = uiReducer(once, { type: 'close' });
    expect(twice.detail).toBeNull();
    expect(twice.help).toBe(true);
    const thrice = uiReducer(twice, { type: 'close' });
    expect([thrice.help, thrice.detail, thrice.confirm]).toEqual([false, null, null]);
    expect(uiReducer(thrice, { type: 'close' })).toBe(thrice);
  });

  it('keeps and clears the status message, and remembers a stop was asked', () => {
    const said = run([{ type: 'say', message: { text: 'Nothing to approve', tone: 'warn' } }]);
    expect(said.message?.text).toBe('Nothing to approve');
    expect(uiReducer(said, { type: 'clear-message' }).message).toBeNull();
    expect(uiReducer(initialUiState, { type: 'clear-message' })).toBe(initialUiState);
    expect(run([{ type: 'stopping' }]).stopping).toBe(true);
  });
});

describe('createUiStore', () => {
  it('applies actions through the reducer and notifies only on change', () => {
    const store = createUiStore();
    let notified = 0;
    store.subscribe(() => notified++);
    store.getState().dispatch({ type: 'focus', direction: 1 });
    store.getState().dispatch({ type: 'clear-message' });
    expect(store.getState().focus).toBe('iterations');
    expect(notified).toBe(1);
  });
});
