// `fixcycle pane` driving the loop in a real tmux while the user keeps saving in their tree: the loop the pane
// started is killed with -9 at a random moment, the worktree and the user's tree survive, a second
// `fixcycle pane --resume-session` reuses the pane, continues and hands the fixes back. Needs `npm run build` and tmux.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { activeDir } from '../../src/engine/session/paths.js';
import { agentCmd, CLI, execa, git, makeRepo, removeRepos, scenario } from '../helpers/repo.js';
import { editAdd, editMultiply, planAdd, planMultiply } from '../e2e/plans.js';
import { expectUserWorkKept, userAtWork } from '../e2e/user-at-work.js';
import { startTmux, tmuxMissing, type Tmux } from './tmux.js';

const missing = tmuxMissing();
let tmux: Tmux | undefined;
afterAll(() => {
  tmux?.kill();
  removeRepos();
});

const ID = 'WFS-test-p';
const session = (repo: string) => join(activeDir(repo), ID);
const readState = (repo: string) => {
  try {
    return JSON.parse(readFileSync(join(session(repo), '.process/iteration-state.json'), 'utf8'));
  } catch {
    return null;
  }
};
/** The pid of the loop driving the session (its lock), or null before it took the lock. */
const loopPid = (repo: string): number | null => {
  try {
    return JSON.parse(readFileSync(join(session(repo), '.lock'), 'utf8')).pid ?? null;
  } catch {
    return null;
  }
};
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe.skipIf(missing !== null)(
  `the pane's loop killed -9 beside a user${missing ? ` (skipped: ${missing})` : ''}`,
  () => {
    it('keeps the worktree and the user tree; pane --resume-session continues and hands the fixes back', async () => {
      const repo = makeRepo('projects-loop/calc', { 'notes.txt': 'my notes\n' });
      const initial = git(repo, 'rev-parse', 'HEAD');
      const agent = scenario({
        analyze: [planAdd, planMultiply].map((p) => ({ ...p, sleepMs: 1500 })),
        fix: [{ edits: [editAdd] }, { edits: [editMultiply] }].map((f) => ({ ...f, sleepMs: 1500 })),
      });
      const t = (tmux = startTmux(`fixcycle-kill-${process.pid}`, repo));
      const user = t.panes()[0]!.id;
      const runArgs = `--test-cmd 'node --test' --agent-cmd '${agentCmd(agent.path)}'`;
      const at = userAtWork(repo);
      // The four agent calls alone take 6 s after the worktree exists, so any moment up to 5.5 s falls inside the run.
      const delay = 500 + Math.floor(Math.random() * 5000);
      try {
        t.type(user, `${process.execPath} ${CLI} pane --session-name p ${runArgs}`);
        await t.until(() => t.panes().some((p) => p.mark === '1'), 'the pane', 30_000);
        const pane = t.panes().find((p) => p.mark === '1')!;
        await t.until(() => loopPid(repo) !== null && readState(repo)?.worktree, 'the loop in its worktree', 60_000);
        const pid = loopPid(repo)!;
        await new Promise((r) => setTimeout(r, delay));
        const s = readState(repo);
        const where = `killed after ${delay} ms at ${s.next_action}/${s.iterations.at(-1)?.step ?? '-'}`;
        expect(alive(pid), `${where}: the loop ended before the kill`).toBe(true);
        process.kill(pid, 'SIGKILL');
        await t.until(() => !alive(pid), 'the loop to die', 5000);
        for (const role of ['analyze', 'fix']) {
          const file = join(agent.dir, `pid-agent-${role}`);
          if (existsSync(file)) tryKill(file);
        }
        expect(existsSync(join(s.worktree.dir, '.git')), where).toBe(true);
        expectUserWorkKept(repo, at, initial);
        expect(git(repo, 'log', '--format=%s', 'main'), where).toBe('initial');

        // The pane is reused and starts the loop again on the session.
        t.type(user, `clear; ${process.execPath} ${CLI} pane --resume-session p ${runArgs}`);
        await t.waitFor(user, `reusing ${pane.id}`);
        await t.until(() => readState(repo)?.worktree?.handback !== undefined, `${where}: the hand-back`, 180_000);
        expect(readState(repo).worktree.handback.status, where).toBe('applied');
        await t.waitFor(pane.id, /Success/, 30_000);
      } finally {
        at.stop();
      }
      expectUserWorkKept(repo, at, initial);
      const calc = readFileSync(join(repo, 'src/calc.js'), 'utf8');
      expect(calc).toContain('return a + b;');
      expect(calc).toContain('return a * b;');
      expect(git(repo, 'log', '--format=%s', 'main').split('\n')).toHaveLength(3);
      expect((await execa('node', ['--test'], { cwd: repo, reject: false })).exitCode).toBe(0);
    }, 300_000);
  },
);

/** kill -9 leaves the agent running in its own process group; a person would see it and stop it too. */
function tryKill(pidFile: string): void {
  try {
    process.kill(Number(readFileSync(pidFile, 'utf8')), 'SIGKILL');
  } catch {
    // It had finished.
  }
}
