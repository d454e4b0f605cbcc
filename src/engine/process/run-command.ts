import { spawn } from 'node:child_process';
import { closeSync, openSync, writeSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { LineSplitter } from './line-splitter.js';
import { OutputTail } from './output-tail.js';
import { groupAlive, killGroup, trackGroup } from './process-group.js';

/** How to run one command. */
export interface RunCommandOptions {
  /** Working directory (the repository root). */
  cwd: string;
  /** Variables set (a string) or removed (`undefined`) on top of fixcycle's own environment. */
  env?: Record<string, string | undefined>;
  /** Kill the whole process tree after this long; no limit when absent. */
  timeoutMs?: number;
  /** Kills the whole process tree when aborted. */
  signal?: AbortSignal;
  /** stdout and stderr as whole lines, in batches, as they come. */
  onLines?: (lines: string[]) => void;
  /** Every line is appended here as it comes (test-output.log), so the log is complete even after a kill. */
  logFile?: string;
  /** This run's displayed output alone is written here (the log may hold earlier runs too). */
  outputFile?: string;
  /** Finds binaries in `node_modules/.bin` of `cwd` and its parents first, as `npm run` does. */
  preferLocal?: boolean;
  /** stdout exactly as written is also saved here (for reports a runner streams on stdout: TAP, `go test -json`). */
  stdoutFile?: string;
  /** Rewrites a line before it reaches the log, `onLines` and the tail; `null` drops it. Default: unchanged. */
  displayLine?: (line: string, stream: 'stdout' | 'stderr') => string | null;
  /** Written to the command's standard input, which is then closed; without it stdin is ignored. */
  input?: string;
  /** Time between SIGTERM and SIGKILL; default 3000 ms. */
  graceMs?: number;
  /** Lines kept for `outputTail`; default 60. */
  tailLines?: number;
}

/** How a command ended. */
export interface CommandResult {
  /** null when the process was ended by a signal or never started. */
  exitCode: number | null;
  /** The signal that ended the process, if any. */
  signal: string | null;
  timedOut: boolean;
  aborted: boolean;
  durationMs: number;
  /** The last lines of the (displayed) output. */
  outputTail: string;
  /** Why the command could not start (`jest: command not found`), when it could not. */
  spawnError?: string;
}

// After the command exits, its leftover children (still in its group) hold the pipes open; give them this
// long to finish writing before they are treated as orphans and killed.
const LEFTOVER_WAIT_MS = 200;

/**
 * Runs `argv` (never through a shell) in its own process group, streaming its output as whole lines and
 * appending it to the log; a timeout or abort kills the whole group (SIGTERM, then SIGKILL after the grace).
 */
export async function runCommand(argv: readonly string[], options: RunCommandOptions): Promise<CommandResult> {
  const [file, ...args] = argv;
  const started = Date.now();
  const tail = new OutputTail(options.tailLines ?? 60);
  const graceMs = options.graceMs ?? 3000;
  if (file === undefined) {
    return {
      exitCode: null,
      signal: null,
      timedOut: false,
      aborted: false,
      durationMs: 0,
      outputTail: '',
      spawnError: 'empty command',
    };
  }
  const logFd = options.logFile ? openSync(options.logFile, 'a') : null;
  const stdoutFd = options.stdoutFile ? openSync(options.stdoutFile, 'w') : null;
  const outputFd = options.outputFile ? openSync(options.outputFile, 'w') : null;
  const emit = (lines: string[], stream: 'stdout' | 'stderr'): void => {
    const shown = options.displayLine ? mapLines(lines, (line) => options.displayLine!(line, stream)) : lines;
    if (shown.length === 0) return;
    const text = shown.join('\n') + '\n';
    if (logFd !== null) writeSync(logFd, text);
    if (outputFd !== null) writeSync(outputFd, text);
    tail.push(shown);
    options.onLines?.(shown);
  };

  try {
    // node:child_process rather than execa: every run and test command starts here, and execa's ~170 kB of
    // modules were a sixth of fixcycle's start-up; what it gave (env, stdin, a result) is a few lines here.
    const env = buildEnv(options.env);
    if (options.preferLocal) env.PATH = localBinPath(options.cwd, env.PATH);
    const subprocess = spawn(file, args, {
      cwd: options.cwd,
      env,
      detached: true,
      stdio: [options.input !== undefined ? 'pipe' : 'ignore', 'pipe', 'pipe'],
    });
    let startError: NodeJS.ErrnoException | null = null;
    // Settles once the process has ended and its pipes are closed (or it never started).
    const closed = new Promise<void>((resolve) => {
      subprocess.once('close', () => resolve());
      subprocess.once('error', (error: NodeJS.ErrnoException) => {
        startError ??= error;
        if (subprocess.pid === undefined) resolve();
      });
    });
    if (options.input !== undefined && subprocess.stdin) {
      subprocess.stdin.on('error', () => undefined); // a command that exits without reading its input
      subprocess.stdin.end(options.input);
    }
    const pgid = subprocess.pid;
    const untrack = pgid === undefined ? () => undefined : trackGroup(pgid);
    const splitters = { stdout: new LineSplitter(), stderr: new LineSplitter() };
    subprocess.stdout?.on('data', (chunk: Buffer) => {
      if (stdoutFd !== null) writeSync(stdoutFd, chunk);
      emit(splitters.stdout.push(chunk), 'stdout');
    });
    subprocess.stderr?.on('data', (chunk: Buffer) => emit(splitters.stderr.push(chunk), 'stderr'));

    let timedOut = false;
    let aborted = false;
    let killing: Promise<void> | null = null;
    const killTree = (): Promise<void> =>
      (killing ??= pgid === undefined ? Promise.resolve() : killGroup(pgid, graceMs));
    const timer =
      options.timeoutMs === undefined
        ? null
        : setTimeout(() => {
            timedOut = true;
            void killTree();
          }, options.timeoutMs);
    const onAbort = (): void => {
      aborted = true;
      void killTree();
    };
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener('abort', onAbort, { once: true });

    const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => {
      subprocess.once('exit', (code, signal) => resolve({ code, signal }));
      subprocess.once('error', () => {
        if (subprocess.pid === undefined) resolve({ code: null, signal: null });
      });
    });
    const exit = await exited;
    if (timer) clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);

    if (pgid !== undefined) {
      await delay(LEFTOVER_WAIT_MS, closed);
      if (groupAlive(pgid)) await killTree();
    }
    // A process that left the group (setsid) may still hold a pipe; do not wait for it forever.
    const settled = await Promise.race([closed.then(() => true), delay(graceMs + 500, closed).then(() => false)]);
    if (!settled) {
      subprocess.stdout?.destroy();
      subprocess.stderr?.destroy();
    }
    await closed;
    if (killing) await killing;
    untrack();
    emit(splitters.stdout.flush(), 'stdout');
    emit(splitters.stderr.flush(), 'stderr');

    const spawnError = startError && subprocess.pid === undefined ? describeSpawnError(file, startError) : undefined;
    return {
      exitCode: spawnError ? null : exit.code,
      signal: exit.signal,
      timedOut,
      aborted,
      durationMs: Date.now() - started,
      outputTail: tail.toString(),
      ...(spawnError ? { spawnError } : {}),
    };
  } finally {
    if (logFd !== null) closeSync(logFd);
    if (stdoutFd !== null) closeSync(stdoutFd);
    if (outputFd !== null) closeSync(outputFd);
  }
}

function buildEnv(overrides: Record<string, string | undefined> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries({ ...process.env, ...overrides })) {
    if (value !== undefined) env[key] = value;
  }
  return env;
}

function mapLines(lines: string[], map: (line: string) => string | null): string[] {
  const out: string[] = [];
  for (const line of lines) {
    const mapped = map(line);
    if (mapped !== null) out.push(mapped);
  }
  return out;
}

/** Waits `ms`, or less when the subprocess has already settled. */
function delay(ms: number, subprocess?: Promise<unknown>): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    subprocess?.then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

function describeSpawnError(file: string, error: NodeJS.ErrnoException): string {
  if (error.code === 'ENOENT') return `${file}: command not found`;
  if (error.code === 'EACCES') return `${file}: permission denied (not executable)`;
  return `${file} could not be started (${error.code ?? error.message})`;
}

/** PATH with `node_modules/.bin` of `cwd` and each parent first (Node's own folder is not added: it would put
 * whatever else lives there, such as /usr/bin/python3, before the user's PATH). */
function localBinPath(cwd: string, path: string | undefined): string {
  const bins: string[] = [];
  for (let dir = cwd; ; dir = dirname(dir)) {
    bins.push(join(dir, 'node_modules', '.bin'));
    if (dirname(dir) === dir) break;
  }
  return [...bins, ...(path ? [path] : [])].join(delimiter);
}
