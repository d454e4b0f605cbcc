// The side pane (`fixcycle watch --follow`, what `fixcycle pane` runs), in a real pseudo-terminal with CI unset:
//   pane_follow_latency_s  a session starting (its folder, lock and state written as a run writes them)
//                          -> the pane showing it; median of several sessions started one after another (<= 0.5)
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import pty from '@lydell/node-pty';
import xterm from '@xterm/headless';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(root, 'dist/cli.js');
const SESSIONS = 7;

function terminalEnv() {
  const env = { ...process.env, TERM: 'xterm-256color' };
  delete env.CI;
  return env;
}

/** Writes a session the way `fixcycle run` starts one: folder, lock, workflow-session.json, iteration-state.json. */
function startSession(repo, id) {
  const dir = join(repo, '.workflow/active', id);
  mkdirSync(join(dir, '.process'), { recursive: true });
  writeFileSync(join(dir, '.lock'), JSON.stringify({ pid: process.pid }));
  const now = new Date().toISOString();
  writeFileSync(
    join(dir, 'workflow-session.json'),
    JSON.stringify({ session_id: id, workflow_type: 'test-fix', created_by: 'fixcycle', agents: ['bench'] }),
  );
  writeFileSync(
    join(dir, '.process/iteration-state.json'),
    JSON.stringify({
      session_id: id,
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
  return dir;
}

export default async function paneBench() {
  const repo = mkdtempSync(join(tmpdir(), 'fixcycle-pane-bench-'));
  execFileSync('git', ['init', '-q'], { cwd: repo });
  const term = new xterm.Terminal({ cols: 60, rows: 40, allowProposedApi: true, scrollback: 0 });
  const child = pty.spawn(process.execPath, [CLI, 'watch', '--follow', '-C', repo], {
    name: 'xterm-256color',
    cols: 60,
    rows: 40,
    cwd: repo,
    env: terminalEnv(),
  });
  let waiter = null;
  const screen = () => {
    const b = term.buffer.active;
    return Array.from({ length: term.rows }, (_, i) => b.getLine(b.viewportY + i)?.translateToString(true) ?? '').join(
      '\n',
    );
  };
  child.onData((data) =>
    term.write(data, () => {
      if (waiter && waiter.check(screen())) {
        const w = waiter;
        waiter = null;
        w.resolve(performance.now());
      }
    }),
  );
  const until = (check, timeoutMs = 30_000) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`the pane never showed what was expected; it shows:\n${screen()}`)),
        timeoutMs,
      );
      waiter = { check, resolve: (t) => (clearTimeout(timer), resolve(t)) };
    });
  try {
    await until((s) => s.includes('Waiting for a session'));
    const latencies = [];
    for (let i = 0; i < SESSIONS; i++) {
      const id = `WFS-test-bench-${i}`;
      const shown = until((s) => s.includes(id));
      // Let the pane settle on the previous session first, as between two real runs.
      await new Promise((r) => setTimeout(r, 300));
      const started = performance.now();
      const dir = startSession(repo, id);
      latencies.push(((await shown) - started) / 1000);
      // The run ends: its lock goes.
      rmSync(join(dir, '.lock'), { force: true });
    }
    latencies.sort((a, b) => a - b);
    return {
      pane_follow_latency_s: latencies[Math.floor(latencies.length / 2)],
      pane_follow_latency_max_s: latencies.at(-1),
    };
  } finally {
    child.kill();
    rmSync(repo, { recursive: true, force: true });
  }
}
