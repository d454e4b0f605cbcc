// Runs a program in a real pseudo-terminal and keeps a headless xterm's screen of it, read row by row.
import pty from '@lydell/node-pty';
import xterm from '@xterm/headless';

export interface PtyOptions {
  columns: number;
  rows: number;
  cwd?: string;
  env?: Record<string, string | undefined>;
}

/** A program running in a pseudo-terminal, and what its terminal shows. */
export interface PtyTerminal {
  /** Types keys as a user would. */
  press(keys: string): void;
  /** The visible rows, as text. */
  rows(): string[];
  screen(): string;
  /** Which buffer the terminal shows: the alternate one while a full-screen app runs. */
  buffer(): 'normal' | 'alternate';
  waitFor(check: string | RegExp | ((screen: string) => boolean), timeoutMs?: number): Promise<string>;
  resize(columns: number, rows: number): void;
  /** Settles when the program exits. */
  exited: Promise<{ exitCode: number; signal?: number }>;
  /** Bytes the program wrote. */
  bytes(): number;
  /** Times the terminal's bell rang. */
  bells(): number;
  kill(signal?: string): void;
}

/** The environment of a terminal user: CI unset (with CI set, Ink writes only its last frame and ignores resizes). */
export function terminalEnv(extra: Record<string, string | undefined> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...process.env, TERM: 'xterm-256color', ...extra })) {
    if (v !== undefined && k !== 'CI' && !k.startsWith('VITEST') && k !== 'NODE_OPTIONS') env[k] = v;
  }
  return env;
}

export function spawnInPty(command: string, args: string[], options: PtyOptions): PtyTerminal {
  const term = new xterm.Terminal({ cols: options.columns, rows: options.rows, allowProposedApi: true, scrollback: 0 });
  const child = pty.spawn(command, args, {
    name: 'xterm-256color',
    cols: options.columns,
    rows: options.rows,
    cwd: options.cwd,
    env: terminalEnv(options.env),
  });
  let written = 0;
  let bells = 0;
  let lastData = Date.now();
  term.onBell(() => bells++);
  child.onData((data) => {
    written += data.length;
    lastData = Date.now();
    term.write(data);
  });
  // The pty may hand over the program's last output after its exit (more so on a loaded machine), and xterm parses
  // it asynchronously: the exit counts once output has been quiet for 100 ms (at most 2 s) and all of it is parsed.
  const exited = new Promise<{ exitCode: number; signal?: number }>((resolve) =>
    child.onExit(async (exit) => {
      const until = Date.now() + 2000;
      while (Date.now() - lastData < 100 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      await new Promise<void>((done) => term.write('', done));
      resolve(exit);
    }),
  );

  const rows = () => {
    const buffer = term.buffer.active;
    return Array.from(
      { length: term.rows },
      (_, i) => buffer.getLine(buffer.viewportY + i)?.translateToString(true) ?? '',
    );
  };
  const screen = () => rows().join('\n');
  // xterm parses asynchronously: an empty write's callback runs once everything before it is on screen.
  const flushed = () => new Promise<void>((resolve) => term.write('', resolve));

  return {
    press: (keys) => child.write(keys),
    rows,
    screen,
    buffer: () => term.buffer.active.type,
    async waitFor(check, timeoutMs = 20_000) {
      const ok =
        typeof check === 'string'
          ? (s: string) => s.includes(check)
          : check instanceof RegExp
            ? (s: string) => check.test(s)
            : check;
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        await flushed();
        const now = screen();
        if (ok(now)) return now;
        if (Date.now() > deadline) throw new Error(`the screen never showed ${String(check)}; it shows:\n${now}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    resize(columns, rowCount) {
      child.resize(columns, rowCount);
      term.resize(columns, rowCount);
    },
    exited,
    bytes: () => written,
    bells: () => bells,
    kill: (signal) => child.kill(signal),
  };
}
