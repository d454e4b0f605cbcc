import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { quote } from 'shell-quote';
import type { Output } from './output.js';

const run = promisify(execFile);

/** The tmux pane option that marks a fixcycle pane, so a second `fixcycle pane` in the window reuses it. */
export const PANE_MARK = '@fixcycle-pane';

export interface PaneOptions {
  cwd: string;
  /** Columns (or rows with `below`) of the new pane. Default: 60 columns, 20 rows. */
  size?: number;
  below?: boolean;
  /** Run options given after `pane`: the pane also starts the loop with them. */
  runArgs: string[];
  /** The pane rings the bell when the session ends or waits for a decision. Default: true (`--no-bell`). */
  bell?: boolean;
  env?: NodeJS.ProcessEnv;
}

async function tmux(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  const { stdout } = await run('tmux', args, { env, encoding: 'utf8' });
  return stdout.trim();
}

/** The arguments of `fixcycle pane` that are run options (all but the pane's own --size and --below). */
export function runArgsOf(argv: string[]): string[] {
  const at = argv.indexOf('pane');
  const rest = at >= 0 ? argv.slice(at + 1) : [];
  const out: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    // --no-bell is the pane's own (its screen rings), not a reason to start a loop.
    if (arg === '--below' || arg === '--no-bell' || arg.startsWith('--size=') || arg.startsWith('--cwd=')) continue;
    if (arg === '--size' || arg === '-C' || arg === '--cwd') {
      i++;
      continue;
    }
    out.push(arg);
  }
  return out;
}

/**
 * `fixcycle pane`: inside tmux, opens (or reuses) a side pane running `watch --follow` and leaves the focus
 * where it was; with run options the pane also starts the loop. Outside tmux, a one-line error.
 */
export async function runPaneCommand(options: PaneOptions, out: Output): Promise<number> {
  const env = options.env ?? process.env;
  const self = env.TMUX_PANE;
  if (!env.TMUX || !self) {
    out.stderr(
      'fixcycle pane: not inside tmux: start tmux (tmux new -s work) and run fixcycle pane there, or run fixcycle watch --follow in any terminal',
    );
    return 2;
  }
  const cwd = resolve(options.cwd);
  const command = [process.execPath, process.argv[1] ?? 'fixcycle', 'watch', '--follow', '-C', cwd];
  if (options.bell === false) command.push('--no-bell');
  if (options.runArgs.length > 0) command.push('--run-args', JSON.stringify(options.runArgs));
  const shell = quote(command);
  try {
    const window = await tmux(['display-message', '-p', '-t', self, '#{window_id}'], env);
    const panes = (await tmux(['list-panes', '-t', window, '-F', `#{pane_id} #{${PANE_MARK}}`], env)).split('\n');
    const existing = panes.map((l) => l.split(' ')).find(([, mark]) => mark === '1')?.[0];
    if (existing) {
      if (options.runArgs.length === 0) {
        out.stderr(`fixcycle pane: the pane is already open in this window (${existing})`);
        return 0;
      }
      await tmux(['respawn-pane', '-k', '-t', existing, '-c', cwd, shell], env);
      out.stderr(`fixcycle pane: reusing ${existing}, starting the loop there`);
      return 0;
    }
    const size = String(options.size ?? (options.below ? 20 : 60));
    const pane = await tmux(
      [
        'split-window',
        '-d',
        options.below ? '-v' : '-h',
        '-l',
        size,
        '-t',
        self,
        '-c',
        cwd,
        '-P',
        '-F',
        '#{pane_id}',
        shell,
      ],
      env,
    );
    await tmux(['set-option', '-p', '-t', pane, PANE_MARK, '1'], env);
    return 0;
  } catch (error) {
    const e = error as NodeJS.ErrnoException & { stderr?: string };
    const why = e.code === 'ENOENT' ? 'tmux is not on PATH' : (e.stderr?.trim().split('\n')[0] ?? e.message);
    out.stderr(`fixcycle pane: tmux refused: ${why}`);
    return 2;
  }
}
