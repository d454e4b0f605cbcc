// TUI figures, in a real pseudo-terminal (node-pty) drawn into a headless xterm, with CI unset:
//   first_frame_ratio   time to the pane's first frame (fixcycle watch --follow on a running session, through the
//                       CLI) over a bare Ink hello-world's, alternated (target <= 1.0)
//   stream_lines_per_s  lines through the output pane while 1,000,000 stream from a child process (>= 200,000)
//   render_fps          frames Ink drew per second meanwhile (<= 30)
//   stream_rss_mb       the app's peak resident memory meanwhile (<= 150)
//   idle_cpu_percent    CPU the app uses with nothing running (near 0: no timer ticks when idle)
//   idle_render_bytes_per_s  bytes written to the terminal per second at 120x40 while a step runs and nothing but
//                       time changes (the spinner, the clock) (target <= 500)
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import pty from '@lydell/node-pty';
import xterm from '@xterm/headless';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const entry = join(root, 'dist/tui/bench-entry.js');
const cli = join(root, 'dist/cli.js');
const HELLO =
  "import React from 'react'; import { render, Text } from 'ink'; render(React.createElement(Text, null, 'hello world'));";
// 9 pairs: enough for a stable median on a shared 2-core machine, a few seconds in all.
const PAIRS = 9;
const STREAM_LINES = 1_000_000;

function terminalEnv() {
  const env = { ...process.env, TERM: 'xterm-256color' };
  delete env.CI;
  return env;
}

/**
 * Runs a command in a pty until `done(screen)` (then kills it, unless `wait`) or until it exits.
 * Resolves with the ms from spawn to `done` and the screen `done` saw.
 */
function runInPty(args, { columns = 120, rows = 40, done, wait = false, timeoutMs = 120_000 }) {
  return new Promise((resolve, reject) => {
    const term = new xterm.Terminal({ cols: columns, rows, allowProposedApi: true, scrollback: 0 });
    const started = performance.now();
    const child = pty.spawn(process.execPath, args, {
      name: 'xterm-256color',
      cols: columns,
      rows,
      cwd: root,
      env: terminalEnv(),
    });
    let settled = false;
    let seen = null;
    const screen = () => {
      const b = term.buffer.active;
      return Array.from({ length: rows }, (_, i) => b.getLine(b.viewportY + i)?.translateToString(true) ?? '').join(
        '\n',
      );
    };
    const finish = (value) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(value);
    };
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`timed out; screen:\n${screen()}`));
    }, timeoutMs);
    child.onData((data) => {
      term.write(data, () => {
        if (settled || seen || !done?.(screen())) return;
        seen = { ms: performance.now() - started, screen: screen() };
        if (wait) return;
        child.kill();
        finish(seen);
      });
    });
    child.onExit(() => setTimeout(() => finish(seen ?? { ms: performance.now() - started, screen: screen() }), 50));
  });
}

/** CPU time (user + system, ms) a process used so far, from /proc (Linux). */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Percent of one core the app uses over 3 s once its first frame is up and nothing runs. */
function idleCpu() {
  return new Promise((resolve, reject) => {
    const child = pty.spawn(process.execPath, [entry, 'first-frame'], {
      name: 'xterm-256color',
      cols: 120,
      rows: 40,
      cwd: root,
      env: terminalEnv(),
    });
    child.onData(() => {});
    setTimeout(() => {
      try {
        const before = cpuMs(child.pid);
        setTimeout(() => {
          const used = cpuMs(child.pid) - before;
          child.kill();
          resolve((used / 3000) * 100);
        }, 3000);
      } catch (error) {
        child.kill();
        reject(error);
      }
    }, 1500);
  });
}

/** Bytes per second the app writes over 4 s at 120x40 while a step runs and nothing but time changes. */
function idleRenderBytes() {
  return new Promise((resolve) => {
    const child = pty.spawn(process.execPath, [entry, 'idle'], {
      name: 'xterm-256color',
      cols: 120,
      rows: 40,
      cwd: root,
      env: terminalEnv(),
    });
    let bytes = 0;
    let counting = false;
    let drawn = false;
    child.onData((data) => {
      if (counting) bytes += Buffer.byteLength(data);
      if (drawn || !data.includes('Iteration 1')) return;
      drawn = true;
      // 1 s after the running step is first drawn: start-up is over, only time changes from here.
      setTimeout(() => {
        counting = true;
        setTimeout(() => {
          child.kill();
          resolve(bytes / 4);
        }, 4000);
      }, 1000);
    });
  });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** A repository with a session being driven, as the pane finds it when it opens. */
function paneRepo() {
  const repo = mkdtempSync(join(tmpdir(), 'fixcycle-tui-bench-repo-'));
  const dir = join(repo, '.workflow/active/WFS-test-bench');
  mkdirSync(join(dir, '.process'), { recursive: true });
  mkdirSync(join(repo, '.git'));
  writeFileSync(join(dir, '.lock'), JSON.stringify({ pid: process.pid }));
  const now = new Date().toISOString();
  writeFileSync(
    join(dir, '.process/iteration-state.json'),
    JSON.stringify({
      session_id: 'WFS-test-bench',
      current_iteration: 0,
      max_iterations: 10,
      started_at: now,
      updated_at: now,
      status: 'active',
      next_action: 'execute_fix_task',
      stuck_tests: [],
      iterations: [],
    }),
  );
  return repo;
}

export default async function tuiBench() {
  const hello = [];
  const app = [];
  // The app's first frame is the pane's: `fixcycle watch --follow` through the CLI, on a session being driven.
  const repo = paneRepo();
  try {
    for (let i = 0; i < PAIRS; i++) {
      hello.push((await runInPty(['--input-type=module', '-e', HELLO], { done: (s) => s.includes('hello world') })).ms);
      app.push(
        (
          await runInPty([cli, 'watch', '--follow', '-C', repo], {
            done: (s) => s.includes('WFS-test-bench') && s.includes('Output'),
          })
        ).ms,
      );
    }
  } finally {
    rmSync(repo, { recursive: true, force: true });
  }

  const dir = mkdtempSync(join(tmpdir(), 'fixcycle-tui-bench-'));
  try {
    const out = join(dir, 'figures.json');
    const last = `ok ${STREAM_LINES} - test case number ${STREAM_LINES}`;
    const { screen } = await runInPty([entry, 'stream', String(STREAM_LINES), out], {
      done: (s) => s.includes(last),
      wait: true,
    });
    if (!screen.includes(last)) throw new Error(`the last line never reached the screen:\n${screen}`);
    const figures = JSON.parse(readFileSync(out, 'utf8'));
    if (figures.lines !== STREAM_LINES) throw new Error(`${figures.lines} lines arrived of ${STREAM_LINES}`);
    return {
      first_frame_ratio: median(app) / median(hello),
      first_frame_ms: median(app),
      hello_first_frame_ms: median(hello),
      stream_lines_per_s: figures.stream_lines_per_s,
      render_fps: figures.render_fps,
      stream_rss_mb: figures.stream_rss_mb,
      ...(existsSync('/proc/self/stat') ? { idle_cpu_percent: await idleCpu() } : {}),
      idle_render_bytes_per_s: await idleRenderBytes(),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
