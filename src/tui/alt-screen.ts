/** Switches to the alternate screen buffer and clears it (what vim and less do), so the user's scrollback stays untouched. */
export const ENTER_ALT_SCREEN = '\x1b[?1049h\x1b[2J\x1b[H';
/** Back to the normal screen, with the cursor shown again. */
export const LEAVE_ALT_SCREEN = '\x1b[?25h\x1b[?1049l';

/** Signals after which the terminal must be given back before the process goes. */
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** Options of the alternate screen guard. */
export interface AltScreenOptions {
  /** Runs before the screen is restored, whatever the reason (to draw a last frame, to unmount). */
  beforeRestore?: () => void;
}

/** The alternate screen while it is held. */
export interface AltScreen {
  /** Restores the normal screen now (idempotent) and stops watching the process. */
  release(): void;
}

/**
 * Enters the alternate screen and guarantees it is left on every way out: a normal exit, `process.exit`,
 * an uncaught exception (before Node prints it, so the trace lands on the normal screen) and SIGINT,
 * SIGTERM or SIGHUP. After a signal it restores the screen and leaves the decision to the process: when
 * nobody else listens for that signal, it re-raises it so the default (exit) happens.
 */
export function holdAltScreen(
  stdout: NodeJS.WriteStream,
  stdin: NodeJS.ReadStream,
  options: AltScreenOptions = {},
): AltScreen {
  if (!stdout.isTTY) return { release() {} };
  let released = false;

  const restore = () => {
    if (released) return;
    released = true;
    try {
      options.beforeRestore?.();
    } catch {
      // The screen must come back even if the last frame cannot be drawn.
    }
    try {
      if (stdin.isTTY && stdin.isRaw) stdin.setRawMode(false);
    } catch {
      // stdin may already be closed.
    }
    try {
      stdout.write(LEAVE_ALT_SCREEN);
    } catch {
      // stdout may already be closed; nothing left to restore then.
    }
  };

  const onSignal = (signal: NodeJS.Signals) => {
    restore();
    detach();
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  };
  const detach = () => {
    process.off('exit', restore);
    process.off('uncaughtExceptionMonitor', restore);
    for (const signal of SIGNALS) process.off(signal, onSignal);
  };

  stdout.write(ENTER_ALT_SCREEN);
  process.on('exit', restore);
  process.on('uncaughtExceptionMonitor', restore);
  for (const signal of SIGNALS) process.on(signal, onSignal);

  return {
    release() {
      restore();
      detach();
    },
  };
}
