// watch --follow: the session follower on real folders, a pane in a real pty whose session is deleted under
// it, and `fixcycle pane` outside tmux. Needs `npm run build` for the terminal tests.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { findRepoRoot, followSessions, type SessionFollower } from '../../src/tui/follow-sessions.js';
import { iterationState } from '../tui/scenarios.js';
import { spawnInPty, terminalEnv, type PtyTerminal } from '../tui/pty-terminal.js';

const CLI = resolve(import.meta.dirname, '../../dist/cli.js');
let repo: string;
let follower: SessionFollower | undefined;
let term: PtyTerminal | undefined;
let seen: string[];

beforeEach(() => {
  repo = mkdtempSync(join(tmpdir(), 'fixcycle-follow-'));
  mkdirSync(join(repo, '.git'));
  seen = [];
});
afterEach(() => {
  follower?.stop();
  term?.kill();
  rmSync(repo, { recursive: true, force: true });
});

/** Writes a session as a run does: the folder, its lock while driven, its state. */
function writeSession(id: string, options: { live?: boolean; status?: string } = {}) {
  const dir = join(repo, '.workflow/active', id);
  mkdirSync(join(dir, '.process'), { recursive: true });
  writeFileSync(
    join(dir, '.process/iteration-state.json'),
    JSON.stringify(iterationState([], { session_id: id, status: (options.status ?? 'active') as 'active' })),
  );
  if (options.live) writeFileSync(join(dir, '.lock'), JSON.stringify({ pid: process.pid }));
  else rmSync(join(dir, '.lock'), { force: true });
  return dir;
}

async function until(check: () => boolean, what: string) {
  const deadline = Date.now() + 5000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; seen: ${seen.join(', ')}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

function follow() {
  follower = followSessions({
    repoRoot: repo,
    pollMs: 50,
    onSession: (id) => seen.push(id),
    onGone: (id) => seen.push(`gone ${id}`),
  });
  return follower;
}

describe('following the sessions of a repository', () => {
  it('waits past ended sessions, shows one that starts, keeps it when it ends, switches to the next at once', async () => {
    const old = writeSession('WFS-test-old', { status: 'completed' });
    utimesSync(
      join(old, '.process/iteration-state.json'),
      new Date(Date.now() - 60_000),
      new Date(Date.now() - 60_000),
    );
    await follow().scan();
    expect(seen).toEqual([]);
    writeSession('WFS-test-one', { live: true });
    await until(() => seen.length === 1, 'the first session');
    writeSession('WFS-test-one', { status: 'completed' });
    await new Promise((r) => setTimeout(r, 200));
    expect(seen).toEqual(['WFS-test-one']);
    writeSession('WFS-test-two', { live: true });
    await until(() => seen.length === 2, 'the second session');
    expect(seen).toEqual(['WFS-test-one', 'WFS-test-two']);
  });

  it('starts on the session being driven, and says when its folder is deleted', async () => {
    writeSession('WFS-test-running', { live: true });
    await follow().scan();
    await until(() => seen.length === 1, 'the running session');
    expect(seen).toEqual(['WFS-test-running']);
    rmSync(join(repo, '.workflow/active/WFS-test-running'), { recursive: true });
    await until(() => seen.length === 2, 'the deletion');
    expect(seen[1]).toBe('gone WFS-test-running');
  });

  it('reports nothing once stopped, not even from a look already under way', async () => {
    writeSession('WFS-test-stopping', { live: true });
    const f = follow();
    await f.scan();
    await until(() => seen.length === 1, 'the running session');
    rmSync(join(repo, '.workflow/active/WFS-test-stopping'), { recursive: true });
    const underWay = f.scan();
    f.stop();
    await underWay;
    await new Promise((r) => setTimeout(r, 150));
    expect(seen).toEqual(['WFS-test-stopping']);
  });

  it('finds the repository root from a subfolder', () => {
    mkdirSync(join(repo, 'src/deep'), { recursive: true });
    expect(findRepoRoot(join(repo, 'src/deep'))).toBe(repo);
  });
});

describe('the pane in a terminal', () => {
  it('watch with no session running follows: waits, shows a session, and goes back to waiting when its folder is deleted', async () => {
    term = spawnInPty(process.execPath, [CLI, 'watch', '-C', repo], { columns: 120, rows: 24, cwd: repo });
    await term.waitFor('Waiting for a session in');
    writeSession('WFS-test-deleted', { live: true });
    await term.waitFor('WFS-test-deleted');
    rmSync(join(repo, '.workflow/active/WFS-test-deleted'), { recursive: true });
    const screen = await term.waitFor('was deleted: waiting for the next session');
    expect(screen).toContain('Waiting for a session in');
    term.press('q');
    expect((await term.exited).exitCode).toBe(0);
  });

  it('fixcycle pane outside tmux says in one line how to use it', () => {
    const env = terminalEnv();
    delete env.TMUX;
    delete env.TMUX_PANE;
    const result = spawnSync(process.execPath, [CLI, 'pane', '-C', repo], { env, encoding: 'utf8' });
    expect(result.status).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual([
      'fixcycle pane: not inside tmux: start tmux (tmux new -s work) and run fixcycle pane there, or run fixcycle watch --follow in any terminal',
    ]);
  });
});
