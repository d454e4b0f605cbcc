import { render } from 'ink';
import type { StoreApi } from 'zustand/vanilla';
import { App } from '../app.js';
import type { LoopControls } from '../engine/events.js';
import type { FixcycleStore } from '../state/store.js';
import type { StatusMessage } from '../state/ui-state.js';
import { createUiStore } from '../state/ui-store.js';
import { holdAltScreen } from './alt-screen.js';
import { ringOnDecisions } from './bell.js';
import { writeChangedLines } from './changed-lines.js';
import { receiptLines } from './receipt.js';
import { TuiProvider } from './context.js';
import { createTheme } from './theme.js';

/** 30: the frame rate above which nobody reads faster, and below which scrolling still looks smooth. */
export const MAX_FPS = 30;

/** Options of `startTui`. */
export interface TuiOptions {
  /** The session store the engine (or the watcher) feeds with EngineEvents. */
  store: StoreApi<FixcycleStore>;
  /** The running loop's controls; null in watch mode, where keys that need an engine say so. */
  controls: LoopControls | null;
  /** The header's title. Default: `fixcycle`. */
  title?: string;
  /** Label the screen as a demo. Default: false. */
  demo?: boolean;
  /** Called once when the user quits with q (after confirming, if the loop was working). */
  onQuit?: () => void;
  /** Streams to draw on and read keys from. Default: the process's. */
  stdout?: NodeJS.WriteStream;
  stdin?: NodeJS.ReadStream;
  /** Environment for NO_COLOR. Default: process.env. */
  env?: NodeJS.ProcessEnv;
  /** `watch --follow`: the repository whose sessions the screen follows. */
  follow?: string;
  /** Called after every frame Ink draws (benchmarks count frames with it). */
  onRender?: () => void;
  /** Ring the terminal's bell when the session ends or waits for a decision. Default: true (`--no-bell` turns it off). */
  bell?: boolean;
}

/** A running TUI. */
export interface TuiHandle {
  /** Settles when the TUI is gone and the screen restored; rejects with a render error. */
  waitUntilExit(): Promise<void>;
  /** Takes the TUI down and restores the screen. */
  unmount(): void;
  /** Shows a one-line message in the status line (for example, that a watched file is half-written); null clears it. */
  notify(text: string | null, tone?: StatusMessage['tone']): void;
  /**
   * Writes the receipt on the normal screen once the TUI is gone: outcome, pass rate, iterations, session id and the
   * command to go on. `driving`: this process ran the loop (true), or watched it (false).
   */
  printReceipt(driving: boolean): void;
}

/**
 * Opens the full-screen TUI on the alternate screen. It reads only `store` and acts only through
 * `controls`; the screen is restored on quit, on unmount, on a crash and on SIGINT/SIGTERM/SIGHUP.
 */
export function startTui(options: TuiOptions): TuiHandle {
  const stdout = options.stdout ?? process.stdout;
  const stdin = options.stdin ?? process.stdin;
  const ui = createUiStore();
  const value = {
    session: options.store,
    ui,
    controls: options.controls,
    theme: createTheme(options.env),
    title: options.title ?? 'fixcycle',
    demo: options.demo ?? false,
    follow: options.follow ?? null,
  };

  const stopBell = options.bell === false ? () => {} : ringOnDecisions(options.store, stdout);
  let instance: ReturnType<typeof render> | null = null;
  const screen = holdAltScreen(stdout, stdin, { beforeRestore: () => instance?.unmount() });
  let quit = false;
  const onQuit = () => {
    if (quit) return;
    quit = true;
    options.onQuit?.();
    instance?.unmount();
  };

  instance = render(
    <TuiProvider value={value}>
      <App onQuit={onQuit} />
    </TuiProvider>,
    {
      // A frame where only a line or two changed (the spinner, the clock) is written as those lines alone.
      stdout: writeChangedLines(stdout),
      stdin,
      // Ctrl+C is a key like q: it asks before stopping a working loop.
      exitOnCtrlC: false,
      maxFps: MAX_FPS,
      onRender: options.onRender,
    },
  );
  const exited = instance.waitUntilExit().then(
    () => {
      stopBell();
      screen.release();
    },
    (error: unknown) => {
      stopBell();
      screen.release();
      throw error;
    },
  );

  return {
    waitUntilExit: () => exited,
    unmount: () => instance?.unmount(),
    notify: (text, tone = 'warn') =>
      ui.getState().dispatch(text === null ? { type: 'clear-message' } : { type: 'say', message: { text, tone } }),
    printReceipt(driving) {
      const lines = receiptLines(options.store.getState(), driving);
      if (lines.length > 0) stdout.write(`${lines.join('\n')}\n`);
    },
  };
}
