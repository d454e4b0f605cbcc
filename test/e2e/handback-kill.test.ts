// kill -9 in the hand-back, the moment the fixes come to the user's branch: wherever it lands (before the branch
// moved, or after it and before the files were written), the next start finishes the hand-back: the user's
// tree holds the fixes and every line they saved, and no fixed file is left behind their branch.
import { existsSync, readFileSync, watch } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { activeDir } from '../../src/engine/session/paths.js';
import { agentCmd, CLI, execa, git, makeRepo, removeRepos, scenario } from '../helpers/repo.js';
import { editAdd, editMultiply, planAdd, planMultiply } from './plans.js';
import { expectUserWorkKept, userAtWork } from './user-at-work.js';

afterAll(removeRepos);

const ID = 'WFS-test-h';
const processDir = (repo: string) => join(activeDir(repo), ID, '.process');
const readState = (repo: string) => JSON.parse(readFileSync(join(processDir(repo), 'iteration-state.json'), 'utf8'));

describe('kill -9 during the hand-back', () => {
  // Delays after the journal appears: at once (before the branch moves), and a little later (after).
  it.each([0, 6, 15])(
    'killed %i ms into it, the next start finishes the hand-back',
    async (extra) => {
      const repo = makeRepo('projects-loop/calc', { 'notes.txt': 'my notes\n' });
      const initial = git(repo, 'rev-parse', 'HEAD');
      const agent = scenario({
        analyze: [planAdd, planMultiply],
        fix: [{ edits: [editAdd] }, { edits: [editMultiply] }],
      });
      const args = ['--test-cmd', 'node --test', '--agent-cmd', agentCmd(agent.path)];
      const user = userAtWork(repo);
      let where = 'not killed: the run ended first';
      try {
        const child = execa(process.execPath, [CLI, 'run', '--headless', '--session-name', 'h', ...args], {
          cwd: repo,
          reject: false,
          env: { FORCE_COLOR: '0' },
        });
        const delay = extra + Math.floor(Math.random() * 4);
        // The session folder exists once the run announced it; the journal is written there just before the move.
        await new Promise<void>((done) => {
          const poll = setInterval(() => {
            if (!existsSync(processDir(repo))) return;
            clearInterval(poll);
            const watcher = watch(processDir(repo), (_, name) => {
              if (name !== 'handback-journal.json') return;
              watcher.close();
              setTimeout(() => {
                child.kill('SIGKILL');
                where = `killed ${delay} ms after the journal appeared, main ${git(repo, 'rev-parse', 'main') === initial ? 'not moved yet' : 'already moved'}`;
                done();
              }, delay);
            });
            void child.then(() => {
              watcher.close();
              done();
            });
          }, 20);
        });
        await child;
        const resumed = await execa(process.execPath, [CLI, 'run', '--headless', '--resume-session', ID, ...args], {
          cwd: repo,
          reject: false,
          env: { FORCE_COLOR: '0' },
        });
        expect(resumed.exitCode, `${where}\n${resumed.stdout}${resumed.stderr}`).toBe(0);
      } finally {
        user.stop();
      }
      expectUserWorkKept(repo, user, initial);
      const calc = readFileSync(join(repo, 'src/calc.js'), 'utf8');
      expect(calc, where).toContain('return a + b;');
      expect(calc, where).toContain('return a * b;');
      // Nothing the fixes changed is left behind the branch: the only changes in the tree are the user's.
      const diff = git(repo, 'diff', 'HEAD', '--', 'src/calc.js');
      expect(diff, where).not.toMatch(/^-.*return a [+*] b;/m);
      expect(readState(repo).worktree.handback.status, where).toBe('applied');
      expect(existsSync(join(processDir(repo), 'handback-journal.json')), where).toBe(false);
      expect((await execa('node', ['--test'], { cwd: repo, reject: false })).exitCode, where).toBe(0);
    },
    120_000,
  );
});
