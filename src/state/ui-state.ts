import type { Choice } from '../tui/question-lines.js';

/**
 * The TUI's own state (what is focused, scrolled, open, asked), kept apart from the session store:
 * the engine never sees it and a view never writes the session. A pure reducer, tested without a terminal.
 */

/** The panes `tab` moves between, in order. */
export const PANES = ['output', 'iterations', 'failures'] as const;
export type Pane = (typeof PANES)[number];

/** A y/n question the next key answers. */
export interface ConfirmPrompt {
  /** What a `y` does: roll back the last committed iteration, or stop the loop and leave. */
  kind: 'rollback' | 'quit';
  /** The question as the user reads it. */
  prompt: string;
  /** The keys that answer it and what each does. Default: y yes · n no. */
  choices?: readonly Choice[];
}

/** A one-line message in the status line, most often why a key did nothing. */
export interface StatusMessage {
  text: string;
  tone: 'info' | 'warn';
}

/** Where the output window is, in the ring buffer's numbering (lines ever pushed). */
export interface OutputWindow {
  /** Lines pushed since the start (`RingBuffer.total`). */
  total: number;
  /** Lines still kept (`RingBuffer.size`). */
  size: number;
  /** Rows the output pane shows. */
  height: number;
}

/** Where the failure groups are among the failures view's lines, for moving the cursor and keeping it in view. */
export interface GroupSpans {
  /** The index of each group's first line. */
  starts: readonly number[];
  /** All lines of the view. */
  lines: number;
  /** Rows the view shows. */
  height: number;
}

export interface UiState {
  /** The pane the arrow keys act on. Default: the output. */
  focus: Pane;
  /** True while the output pane shows the newest lines as they arrive. Default: true. */
  follow: boolean;
  /** Absolute number of the first visible output line while not following. */
  outputTop: number;
  /** First visible line of the failures view. */
  failuresTop: number;
  /** Index of the failure group under the failures view's cursor (clamped to the groups there are). */
  failureGroup: number;
  /** Iteration number under the table's cursor; null keeps the cursor on the newest iteration. */
  selected: number | null;
  /** True while the help overlay is open. */
  help: boolean;
  /** First visible line of the help overlay, when it is taller than the screen. */
  helpTop: number;
  /** The iteration opened with enter (or only its fix's diff, opened with `d`), and how far its view is scrolled. */
  detail: { iteration: number; top: number; diffOnly?: boolean } | null;
  /**
   * The failure group opened with enter, named by one of its failures (groups are recomputed on each run), or, with a
   * null id, every failure of the latest run (`v`); and its scroll.
   */
  failureDetail: { failureId: string | null; top: number } | null;
  /** The question waiting for y/n, if any. */
  confirm: ConfirmPrompt | null;
  /** The status line's message, if any. */
  message: StatusMessage | null;
  /** True once the user asked to stop: the UI leaves when the loop reports it is done. */
  stopping: boolean;
}

export type UiAction =
  | { type: 'focus'; direction: 1 | -1 }
  | { type: 'toggle-follow'; window: OutputWindow }
  | { type: 'scroll-output'; delta: number; window: OutputWindow }
  | { type: 'scroll-output-edge'; edge: 'top' | 'bottom'; window: OutputWindow }
  | { type: 'scroll-failures'; delta: number; max: number }
  | { type: 'select-failure-group'; delta: number; spans: GroupSpans }
  | { type: 'open-failure-detail'; failureId: string | null }
  | { type: 'select-iteration'; delta: number; iterations: readonly number[] }
  | { type: 'select-iteration-edge'; edge: 'top' | 'bottom'; iterations: readonly number[] }
  | { type: 'toggle-help' }
  | { type: 'scroll-help'; delta: number; max: number }
  | { type: 'open-detail'; iteration: number; diffOnly?: boolean }
  | { type: 'scroll-detail'; delta: number; max: number }
  | { type: 'close' }
  | { type: 'ask'; confirm: ConfirmPrompt }
  | { type: 'answered' }
  | { type: 'say'; message: StatusMessage }
  | { type: 'clear-message' }
  | { type: 'stopping' };

export const initialUiState: UiState = {
  focus: 'output',
  follow: true,
  outputTop: 0,
  failuresTop: 0,
  failureGroup: 0,
  selected: null,
  help: false,
  helpTop: 0,
  detail: null,
  failureDetail: null,
  confirm: null,
  message: null,
  stopping: false,
};

function clamp(value: number, min: number, max: number): number {
  return Math.max(min, Math.min(max, value));
}

/** The absolute number of the oldest line the buffer still has. */
function oldest(window: OutputWindow): number {
  return window.total - window.size;
}

/** The top line when the pane shows the tail. */
function tailTop(window: OutputWindow): number {
  return Math.max(oldest(window), window.total - window.height);
}

/** The first visible output line: the tail when following, else the kept position clamped to what is still there. */
export function visibleOutputTop(ui: Pick<UiState, 'follow' | 'outputTop'>, window: OutputWindow): number {
  if (ui.follow) return tailTop(window);
  return clamp(ui.outputTop, oldest(window), tailTop(window));
}

function scrollOutput(state: UiState, top: number, window: OutputWindow, downward: boolean): UiState {
  const next = clamp(top, oldest(window), tailTop(window));
  // Reaching the end while scrolling down picks the tail up again, as `less +F` does.
  if (downward && next >= tailTop(window)) return { ...state, follow: true, outputTop: next };
  return { ...state, follow: false, outputTop: next };
}

function moveSelection(state: UiState, iterations: readonly number[], to: (index: number) => number): UiState {
  if (iterations.length === 0) return state;
  const current = state.selected === null ? -1 : iterations.indexOf(state.selected);
  const index = clamp(to(current === -1 ? iterations.length - 1 : current), 0, iterations.length - 1);
  // The last row selected means "follow the newest", so new iterations keep the cursor on the live one.
  return { ...state, selected: index === iterations.length - 1 ? null : iterations[index]! };
}

/**
 * The failures view's top line once the cursor is on the group starting at `start`: the current top while the
 * group's headline and tests show, else the nearest that shows them; the first group shows what is above it
 * (run errors) and the last what is below (the suspects) when they fit.
 */
function failuresTopFor(current: number, index: number, start: number, spans: GroupSpans): number {
  const max = Math.max(0, spans.lines - spans.height);
  const rows = Math.min(2, spans.height);
  const shows = (top: number) => start >= top && start + rows <= top + spans.height;
  const prefer = index === 0 ? 0 : index === spans.starts.length - 1 ? max : current;
  if (shows(prefer)) return prefer;
  return start < prefer ? start : clamp(start + rows - spans.height, 0, max);
}

export function uiReducer(state: UiState, action: UiAction): UiState {
  switch (action.type) {
    case 'focus': {
      const index = PANES.indexOf(state.focus);
      return { ...state, focus: PANES[(index + action.direction + PANES.length) % PANES.length]! };
    }
    case 'toggle-follow':
      return state.follow
        ? { ...state, follow: false, outputTop: visibleOutputTop(state, action.window) }
        : { ...state, follow: true };
    case 'scroll-output':
      return scrollOutput(
        state,
        visibleOutputTop(state, action.window) + action.delta,
        action.window,
        action.delta > 0,
      );
    case 'scroll-output-edge':
      return action.edge === 'top'
        ? scrollOutput(state, oldest(action.window), action.window, false)
        : { ...state, follow: true, outputTop: tailTop(action.window) };
    case 'scroll-failures':
      return { ...state, failuresTop: clamp(state.failuresTop + action.delta, 0, Math.max(0, action.max)) };
    case 'select-failure-group': {
      const count = action.spans.starts.length;
      if (count === 0) return state;
      const index = clamp(Math.min(state.failureGroup, count - 1) + action.delta, 0, count - 1);
      return {
        ...state,
        failureGroup: index,
        failuresTop: failuresTopFor(state.failuresTop, index, action.spans.starts[index]!, action.spans),
      };
    }
    case 'open-failure-detail':
      return { ...state, failureDetail: { failureId: action.failureId, top: 0 }, help: false };
    case 'select-iteration':
      return moveSelection(state, action.iterations, (i) => i + action.delta);
    case 'select-iteration-edge':
      return moveSelection(state, action.iterations, () => (action.edge === 'top' ? 0 : action.iterations.length - 1));
    case 'toggle-help':
      return { ...state, help: !state.help, helpTop: 0 };
    case 'scroll-help':
      return { ...state, helpTop: clamp(state.helpTop + action.delta, 0, Math.max(0, action.max)) };
    case 'open-detail':
      return {
        ...state,
        detail: { iteration: action.iteration, top: 0, ...(action.diffOnly ? { diffOnly: true } : {}) },
        help: false,
      };
    case 'scroll-detail': {
      const open = state.detail ?? state.failureDetail;
      if (!open) return state;
      const top = clamp(open.top + action.delta, 0, Math.max(0, action.max));
      return state.detail
        ? { ...state, detail: { ...state.detail, top } }
        : { ...state, failureDetail: { ...state.failureDetail!, top } };
    }
    case 'close':
      // Closes the innermost thing first: a question, then the iteration or failure group view, then help.
      if (state.confirm) return { ...state, confirm: null };
      if (state.detail) return { ...state, detail: null };
      if (state.failureDetail) return { ...state, failureDetail: null };
      if (state.help) return { ...state, help: false };
      return state;
    case 'ask':
      return { ...state, confirm: action.confirm };
    case 'answered':
      return { ...state, confirm: null };
    case 'say':
      return { ...state, message: action.message };
    case 'clear-message':
      return state.message ? { ...state, message: null } : state;
    case 'stopping':
      return { ...state, stopping: true };
  }
}
