import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Repo } from '../../src/engine/git.js';
import { isolateNewSession } from '../../src/engine/isolation/session-isolation.js';
import { removeSessionWorktree } from '../../src/engine/isolation/session-worktree.js';
import { sessionPaths } from '../../src/engine/session/paths.js';
import { git, makeRepo, removeRepos } from '../helpers/repo.js';

afterAll(removeRepos);

/** A pid that ran and is gone, as a start's lock after kill -9. */
const deadPid = (): number =>
  Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString());

/** What a start killed after its worktree and before its first save leaves: the worktree, the branch, the folder. */
async function killedStart(repo: string, id: string): Promise<string> {
  const { record } = await isolateNewSession(await Repo.open(repo), id);
  const paths = sessionPaths(repo, id);
  for (const dir of [paths.processDir, paths.taskDir, paths.summariesDir]) mkdirSync(dir, { recursive: true });
  writeFileSync(paths.lock, JSON.stringify({ pid: deadPid(), host: 'here' }));
  return record.dir;
}

/** Two minutes ago, as a start stopped then. */
function age(repo: string, id: string): void {
  const then = new Date(Date.now() - 120_000);
  utimesSync(sessionPaths(repo, id).dir, then, then);
}

describe('a start stopped before it saved anything', () => {
  it('leaves a worktree and branch that the next start removes, naming them; a saved session and a young start stay', async () => {
    const repo = makeRepo(null, { 'src/a.js': 'export const a = 1;\n' });
    writeFileSync(join(repo, 'src/a.js'), 'export const a = 2;\n');
    const left = await killedStart(repo, 'WFS-test-killed');
    const young = await killedStart(repo, 'WFS-test-young');
    const saved = await killedStart(repo, 'WFS-test-saved');
    writeFileSync(sessionPaths(repo, 'WFS-test-saved').iterationState, '{}');
    age(repo, 'WFS-test-killed');
    age(repo, 'WFS-test-saved');
    expect(existsSync(left)).toBe(true);

    const next = await isolateNewSession(await Repo.open(repo), 'WFS-test-next');
    expect(next.notes.map((n) => ('message' in n ? n.message : ''))).toContain(
      'removed the worktree and branch of WFS-test-killed, a start stopped before it saved anything',
    );
    expect(existsSync(left)).toBe(false);
    expect(existsSync(sessionPaths(repo, 'WFS-test-killed').dir)).toBe(false);
    const branches = git(repo, 'branch', '--list', 'fixcycle/*', '--format=%(refname:short)').split('\n');
    expect(branches.sort()).toEqual(['fixcycle/WFS-test-next', 'fixcycle/WFS-test-saved', 'fixcycle/WFS-test-young']);
    expect(existsSync(young)).toBe(true);
    expect(existsSync(saved)).toBe(true);
    // The user's tree is as it was: their uncommitted change, their branch.
    expect(git(repo, 'status', '--porcelain', '--', 'src')).toBe(' M src/a.js');
    expect(git(repo, 'log', '--format=%s')).toBe('initial');
    for (const [dir, id] of [
      [young, 'WFS-test-young'],
      [saved, 'WFS-test-saved'],
      [next.record.dir, 'WFS-test-next'],
    ] as const)
      await removeSessionWorktree(repo, dir, `fixcycle/${id}`, false);
  });

  it('keeps a stopped start whose branch holds a commit of the loop', async () => {
    const repo = makeRepo(null, { 'src/a.js': 'export const a = 1;\n' });
    const left = await killedStart(repo, 'WFS-test-fixed');
    age(repo, 'WFS-test-fixed');
    writeFileSync(join(left, 'src/a.js'), 'export const a = 3;\n');
    git(left, 'commit', '-qam', 'test-cycle: iteration 1');
    const next = await isolateNewSession(await Repo.open(repo), 'WFS-test-after');
    expect(next.notes.some((n) => 'message' in n && n.message.includes('WFS-test-fixed'))).toBe(false);
    expect(existsSync(left)).toBe(true);
    expect(git(repo, 'log', '--format=%s', 'fixcycle/WFS-test-fixed', '-1')).toBe('test-cycle: iteration 1');
  });
});
