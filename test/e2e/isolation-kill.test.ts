import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { activeDir } from '../../src/engine/session/paths.js';
import { agentCmd, CLI, execa, git, makeRepo, removeRepos, scenario } from '../helpers/repo.js';
import { editAdd, editMultiply, planAdd, planMultiply } from './plans.js';
import { expectUserWorkKept, userAtWork } from './user-at-work.js';

afterAll(removeRepos);

const CALC = 'projects-loop/calc';
const base = ['run', '--headless', '--test-cmd', 'node --test', '--session-name', 'k'];
const ID = 'WFS-test-k';

const stateFile = (repo: string) => join(activeDir(repo), ID, '.process/iteration-state.json');
const readState = (repo: string) =>
  existsSync(stateFile(repo)) ? JSON.parse(readFileSync(stateFile(repo), 'utf8')) : null;

/** kill -9 leaves the agent running in its own process group; a person would see it and stop it too. */
function killAgents(dir: string): void {
  for (const role of ['analyze', 'fix']) {
    const file = join(dir, `pid-agent-${role}`);
    if (!existsSync(file)) continue;
    try {
      process.kill(Number(readFileSync(file, 'utf8')), 'SIGKILL');
    } catch {
      // It had finished.
    }
  }
}

describe('kill -9 at random moments of a loop beside a user who keeps saving', () => {
  it('keeps the worktree and the user tree, resumes where it was and hands the fixes back', async () => {
    const repo = makeRepo(CALC, { 'notes.txt': 'my notes\n' });
    const initial = git(repo, 'rev-parse', 'HEAD');
    const agent = scenario({
      analyze: [planAdd, planMultiply].map((p) => ({ ...p, sleepMs: 700 })),
      fix: [{ edits: [editAdd] }, { edits: [editMultiply] }].map((f) => ({ ...f, sleepMs: 700 })),
    });
    const user = userAtWork(repo);
    // Random moments, printed on a failure so it can be replayed.
    // The first may come before the session's state is saved (its worktree made, not yet recorded).
    const delays = [300, 1000, 1000].map((least) => least + Math.floor(Math.random() * 6000));
    const seen: string[] = [];
    let worktree: { dir: string; branch: string } | undefined;
    try {
      for (const delay of [...delays, null]) {
        const resume = readState(repo) !== null;
        const child = execa(
          process.execPath,
          [
            CLI,
            ...base.slice(0, resume ? -2 : undefined),
            ...(resume ? ['--resume-session', ID] : []),
            '--agent-cmd',
            agentCmd(agent.path),
          ],
          { cwd: repo, reject: false, env: { FORCE_COLOR: '0' } },
        );
        if (delay === null) {
          const run = await child;
          expect(run.exitCode, `${delays.join(', ')} ms: ${seen.join(' | ')}\n${run.stdout}${run.stderr}`).toBe(0);
          break;
        }
        await new Promise((r) => setTimeout(r, delay));
        if (child.exitCode !== null) {
          // The run ended before the kill: it must have ended well.
          const run = await child;
          expect(run.exitCode, `${delays.join(', ')} ms: ${seen.join(' | ')}\n${run.stdout}${run.stderr}`).toBe(0);
          break;
        }
        child.kill('SIGKILL');
        await child;
        killAgents(agent.dir);
        const s = readState(repo);
        seen.push(
          `killed after ${delay} ms at ${s ? `${s.next_action}/${s.iterations.at(-1)?.step ?? '-'}` : 'no state yet'}`,
        );
        // The session's branch and, once it found work (its first run is in the user's tree), its worktree survive
        // the kill; the user's tree holds all they saved.
        if (s?.worktree) {
          worktree = s.worktree;
          if (s.iterations.length > 0) expect(existsSync(join(s.worktree.dir, '.git')), seen.join(' | ')).toBe(true);
          expect(git(repo, 'branch', '--list', s.worktree.branch)).not.toBe('');
        }
        expectUserWorkKept(repo, user, initial);
        expect(git(repo, 'log', '--format=%s', 'main'), seen.join(' | ')).toBe('initial');
      }
    } finally {
      user.stop();
    }
    expectUserWorkKept(repo, user, initial);
    const calc = readFileSync(join(repo, 'src/calc.js'), 'utf8');
    expect(calc).toContain('return a + b;');
    expect(calc).toContain('return a * b;');
    const subjects = git(repo, 'log', '--format=%s', 'main').split('\n');
    expect(
      subjects.filter((m) => m.startsWith('test-cycle: iteration')),
      seen.join(' | '),
    ).toHaveLength(2);
    expect(readState(repo).worktree.handback.status).toBe('applied');
    expect((await execa('node', ['--test'], { cwd: repo, reject: false })).exitCode).toBe(0);
    if (worktree) expect(existsSync(worktree.dir)).toBe(false);
  }, 400_000);
});
