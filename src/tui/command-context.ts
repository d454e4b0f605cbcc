import type { LoopControls } from '../engine/events.js';
import type { SessionView } from '../state/store.js';
import type { GroupSpans, OutputWindow, UiAction, UiState } from '../state/ui-state.js';

/** What a command is run against: the newest state of both stores and the sizes of the panes. */
export interface CommandContext {
  ui: UiState;
  session: SessionView;
  /** Null in watch mode. */
  controls: LoopControls | null;
  output: OutputWindow;
  /** How far the failures view can scroll (its lines minus its height). */
  failuresMax: number;
  /** The failure groups in the view's order: one failure of each (to open it by) and where each starts. */
  failureGroups: { ids: readonly string[]; spans: GroupSpans };
  /** How far the iteration view can scroll. */
  detailMax: number;
  /** How far the help overlay can scroll. */
  helpMax: number;
  /** Rows PgUp/PgDn move: the focused pane's height. */
  page: number;
}

/** What the UI does about a command: actions on its own state, and whether to leave. */
export interface CommandResult {
  actions: UiAction[];
  quit?: boolean;
}
