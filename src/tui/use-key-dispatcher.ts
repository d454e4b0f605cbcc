import { useEffect, useRef, type RefObject } from 'react';
import { useInput, type Key } from 'ink';
import type { UiAction } from '../state/ui-state.js';
import { runCommand } from './commands.js';
import { useTui } from './context.js';
import { groupFailures } from './failure-groups.js';
import { currentFailures, failureLines, groupStarts } from './failure-lines.js';
import { helpLines, helpPlace } from './help-lines.js';
import { commandForKey } from './key-bindings.js';

/** The sizes the dispatcher needs to scroll by pages and to stop at the ends; refreshed on every render. */
export interface PaneMetrics {
  outputHeight: number;
  failuresHeight: number;
  iterationRows: number;
  /** Rows of the help overlay and the iteration view, their title included. */
  overlayHeight: number;
  /** Lines of the open iteration view. */
  detailLines: number;
}

/** 6 s: long enough to read a one-line message, short enough that stale advice does not linger. */
export const MESSAGE_MS = 6000;

function describeKey(input: string, key: Key): string {
  if (key.ctrl && input) return `ctrl+${input}`;
  if (input && input.trim() !== '' && input.length === 1) return `"${input}"`;
  return 'That key';
}

/**
 * The one place keys are read: each press is looked up in the key table, run against the newest state
 * of both stores, and turned into UI actions or calls on the loop's controls. The handler never changes,
 * so Ink subscribes to stdin once.
 */
export function useKeyDispatcher(metrics: RefObject<PaneMetrics>, onQuit: () => void): void {
  const { session, ui, controls, theme, title } = useTui();
  const quit = useRef(onQuit);
  quit.current = onQuit;
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  const handler = useRef((input: string, key: Key) => {
    const dispatch = (action: UiAction) => ui.getState().dispatch(action);
    const command = commandForKey(input, key);
    let actions: UiAction[];
    let leave = false;
    if (!command) {
      if (!input && !key.escape) return;
      actions = [
        {
          type: 'say',
          message: { text: `${describeKey(input, key)} does nothing here: ? lists the keys`, tone: 'info' },
        },
      ];
    } else {
      const state = session.getState();
      const uiState = ui.getState();
      const m = metrics.current!;
      const { failures, errors } = currentFailures(state);
      const lines = failureLines(failures, errors, state.stuckTests, state.suspects);
      const page =
        uiState.detail || uiState.failureDetail || uiState.help
          ? m.overlayHeight - 1
          : uiState.focus === 'output'
            ? m.outputHeight
            : uiState.focus === 'failures'
              ? m.failuresHeight
              : m.iterationRows;
      const result = runCommand(command, {
        ui: uiState,
        session: state,
        controls,
        output: { total: state.output.total, size: state.output.size, height: m.outputHeight },
        failuresMax: lines.length - m.failuresHeight,
        failureGroups: {
          ids: groupFailures(failures).map((g) => g.failures[0]!.id),
          spans: { starts: groupStarts(lines), lines: lines.length, height: m.failuresHeight },
        },
        detailMax: m.detailLines - (m.overlayHeight - 1),
        helpMax: helpLines(theme, helpPlace(state, controls, title)).length - (m.overlayHeight - 1),
        page: Math.max(1, page),
      });
      actions = result.actions;
      leave = result.quit === true;
    }
    // A key press replaces the last message: it was about the previous key.
    dispatch({ type: 'clear-message' });
    for (const action of actions) dispatch(action);
    if (actions.some((a) => a.type === 'say')) {
      if (timer.current) clearTimeout(timer.current);
      timer.current = setTimeout(() => dispatch({ type: 'clear-message' }), MESSAGE_MS);
      timer.current.unref?.();
    }
    if (leave) quit.current();
  }).current;

  useInput(handler);
}

/** Leaves once the user asked to stop and the loop says it is done. */
export function useLeaveWhenStopped(onQuit: () => void): void {
  const { session, ui } = useTui();
  useEffect(() => {
    const check = () => {
      if (ui.getState().stopping && session.getState().done) onQuit();
    };
    const unsubscribeSession = session.subscribe(check);
    const unsubscribeUi = ui.subscribe(check);
    return () => {
      unsubscribeSession();
      unsubscribeUi();
    };
  }, [session, ui, onQuit]);
}
