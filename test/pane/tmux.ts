// Drives a real tmux server on a private socket, as a user would: send keys to panes, read their screens.
import { execFileSync, spawnSync } from 'node:child_process';
import { terminalEnv } from '../tui/pty-terminal.js';

/** Why tmux tests cannot run here, or null when they can. */
export function tmuxMissing(): string | null {
  const probe = spawnSync('tmux', ['-V'], { encoding: 'utf8' });
  return probe.error ? 'tmux is not installed (apt-get install tmux)' : null;
}

export interface Tmux {
  run(...args: string[]): string;
  /** Types a command line into a pane and presses enter. */
  type(pane: string, line: string): void;
  keys(pane: string, ...keys: string[]): void;
  screen(pane: string, history?: boolean): string;
  panes(): { id: string; active: boolean; mark: string; command: string }[];
  waitFor(
    pane: string,
    check: string | RegExp | ((screen: string) => boolean),
    timeoutMs?: number,
    history?: boolean,
  ): Promise<string>;
  until(check: () => boolean, what: string, timeoutMs?: number): Promise<void>;
  kill(): void;
}

/** Starts a tmux server of its own (`tmux -L <name>`) with one window of `columns` x `rows` in `cwd`. */
export function startTmux(name: string, cwd: string, columns = 180, rows = 45): Tmux {
  // CI unset: with CI set, Ink draws only its last frame.
  const env = terminalEnv({ PS1: '$ ' });
  const run = (...args: string[]) => execFileSync('tmux', ['-L', name, ...args], { env, encoding: 'utf8' }).trim();
  run(
    '-f',
    '/dev/null',
    'new-session',
    '-d',
    '-s',
    'main',
    '-x',
    String(columns),
    '-y',
    String(rows),
    '-c',
    cwd,
    'bash --norc --noprofile',
  );
  const screen = (pane: string, history = false) =>
    run('capture-pane', '-p', '-t', pane, ...(history ? ['-S', '-'] : []));
  const until = async (check: () => boolean, what: string, timeoutMs = 30_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!check()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  return {
    run,
    type: (pane, line) => {
      run('send-keys', '-t', pane, '-l', line);
      run('send-keys', '-t', pane, 'Enter');
    },
    keys: (pane, ...keys) => run('send-keys', '-t', pane, ...keys),
    screen,
    panes: () =>
      run('list-panes', '-t', 'main', '-F', '#{pane_id}\t#{pane_active}\t#{@fixcycle-pane}\t#{pane_current_command}')
        .split('\n')
        .map((l) => l.split('\t'))
        .map(([id, active, mark, command]) => ({
          id: id!,
          active: active === '1',
          mark: mark ?? '',
          command: command ?? '',
        })),
    async waitFor(pane, check, timeoutMs = 30_000, history = false) {
      const ok =
        typeof check === 'string'
          ? (s: string) => s.includes(check)
          : check instanceof RegExp
            ? (s: string) => check.test(s)
            : check;
      let last = '';
      try {
        await until(() => ok((last = screen(pane, history))), String(check), timeoutMs);
      } catch {
        throw new Error(`pane ${pane} never showed ${String(check)}; it shows:\n${last}`);
      }
      return last;
    },
    until,
    kill: () => {
      try {
        run('kill-server');
      } catch {
        // already gone
      }
    },
  };
}
