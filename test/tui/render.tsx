// A render helper for TUI tests: ink-testing-library's approach (a fake stdout collecting frames, a fake
// stdin feeding keys) with the explicit columns and rows it lacks (it assumes 100 columns and no height).
import { EventEmitter } from 'node:events';
import type { ReactNode } from 'react';
import chalk from 'chalk';
import { render as inkRender } from 'ink';
import stringWidth from 'string-width';
import type { StoreApi } from 'zustand/vanilla';
import type { LoopControls } from '../../src/engine/events.js';
import { createFixcycleStore, type FixcycleStore } from '../../src/state/store.js';
import type { UiState } from '../../src/state/ui-state.js';
import { createUiStore, type UiStore } from '../../src/state/ui-store.js';
import { TuiProvider } from '../../src/tui/context.js';
import { createTheme } from '../../src/tui/theme.js';

// Ink colors through chalk, which turns itself off when stdout is not a terminal (as under vitest).
// Tests check that colors appear, and that NO_COLOR removes them, so colors are on here.
chalk.level = 1;

class TestStdout extends EventEmitter {
  frames: string[] = [];
  isTTY = false;
  constructor(
    public columns: number,
    public rows: number,
  ) {
    super();
  }
  write = (frame: string) => {
    this.frames.push(frame);
    return true;
  };
}

class TestStdin extends EventEmitter {
  isTTY = true;
  isRaw = false;
  private pending: string[] = [];
  write(data: string) {
    this.pending.push(data);
    this.emit('readable');
  }
  read = () => this.pending.shift() ?? null;
  setEncoding() {}
  setRawMode(raw: boolean) {
    this.isRaw = raw;
  }
  resume() {}
  pause() {}
  ref() {}
  unref() {}
}

/** Keys as a terminal sends them. */
export const KEYS = {
  up: '\x1b[A',
  down: '\x1b[B',
  pageUp: '\x1b[5~',
  pageDown: '\x1b[6~',
  home: '\x1b[H',
  end: '\x1b[F',
  tab: '\t',
  shiftTab: '\x1b[Z',
  enter: '\r',
  escape: '\x1b',
  ctrlC: '\x03',
} as const;

export interface RenderOptions {
  columns: number;
  rows: number;
  store?: StoreApi<FixcycleStore>;
  /** Default: null (watch mode). */
  controls?: LoopControls | null;
  ui?: Partial<UiState>;
  /** Environment for the theme (NO_COLOR). Default: colors on. */
  env?: NodeJS.ProcessEnv;
  title?: string;
  demo?: boolean;
}

// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-9;?]*[ -/]*[@-~]/g;

// eslint-disable-next-line no-control-regex
const COLOR = /\x1b\[(?:3\d|4\d|9\d)(?:;\d+)*m/;

/** True when the frame sets any foreground or background color. */
export function hasColor(frame: string): boolean {
  return COLOR.test(frame);
}

/** The raw line (escape sequences included) of a frame that shows `text`. */
export function rawLine(frame: string, text: string): string {
  return frame.split('\n').find((line) => stripAnsi(line).includes(text)) ?? '';
}

export function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

/** Renders `node` inside the TUI's providers on a terminal of exactly `columns` x `rows`. */
export function renderTui(node: ReactNode, options: RenderOptions) {
  const stdout = new TestStdout(options.columns, options.rows);
  const stdin = new TestStdin();
  const store = options.store ?? createFixcycleStore();
  const ui: StoreApi<UiStore> = createUiStore(options.ui);
  const value = {
    session: store,
    ui,
    controls: options.controls ?? null,
    theme: createTheme(options.env ?? {}),
    title: options.title ?? 'fixcycle',
    demo: options.demo ?? false,
  };
  const instance = inkRender(<TuiProvider value={value}>{node}</TuiProvider>, {
    stdout: stdout as unknown as NodeJS.WriteStream,
    stdin: stdin as unknown as NodeJS.ReadStream,
    debug: true,
    exitOnCtrlC: false,
    patchConsole: false,
  });

  const lastFrame = () => stdout.frames.at(-1) ?? '';
  /** The last frame as a person reads it: no escape sequences. */
  const text = () => stripAnsi(lastFrame());
  const lines = () => text().split('\n');

  /** Waits until a frame satisfies `check` (a frame, not a sleep), failing with the last frame after 3 s. */
  const waitFor = async (check: string | ((frame: string) => boolean)): Promise<string> => {
    const ok = typeof check === 'string' ? (f: string) => f.includes(check) : check;
    const deadline = Date.now() + 3000;
    while (Date.now() < deadline) {
      if (ok(text())) return text();
      await new Promise((r) => setTimeout(r, 5));
    }
    throw new Error(
      `no frame matched ${typeof check === 'string' ? JSON.stringify(check) : 'the check'}; last frame:\n${text()}`,
    );
  };

  /** Presses a key and waits for the next frame. */
  const press = async (key: string) => {
    const before = stdout.frames.length;
    stdin.write(key);
    // A lone escape is held for one tick by Ink's parser before it is sure it is not a sequence.
    const deadline = Date.now() + 1000;
    while (stdout.frames.length === before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 2));
  };

  const resize = (columns: number, rows: number) => {
    stdout.columns = columns;
    stdout.rows = rows;
    stdout.emit('resize');
  };

  return {
    store,
    ui,
    stdout,
    stdin,
    lastFrame,
    text,
    lines,
    waitFor,
    press,
    resize,
    unmount: () => instance.unmount(),
    frames: stdout.frames,
  };
}

/** The frame's lines that are wider than the terminal (should be none: nothing may wrap). */
export function overflowing(frame: string, columns: number): string[] {
  return frame.split('\n').filter((line) => stringWidth(line) > columns);
}
