import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sessionWorktreeDir } from '../../src/engine/isolation/session-worktree.js';
import { agentCmd, CLI, execa, git, makeRepo, removeRepos, runCli, scenario, state } from '../helpers/repo.js';
import { editAdd, editMultiply, planAdd, planMultiply } from './plans.js';

afterAll(removeRepos);

const CALC = 'projects-loop/calc';
const base = ['run', '--headless', '--test-cmd', 'node --test'];

async function waitFor(check: () => boolean, what: string, ms = 60_000): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    try {
      if (check()) return;
    } catch {
      // The session's files are not written yet.
    }
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A loop of two fixes whose second analysis takes `sleepMs`: the moment the tests act on the user's side. */
function twoFixes(sleepMs: number) {
  return scenario({
    analyze: [planAdd, { ...planMultiply, sleepMs }],
    fix: [{ edits: [editAdd] }, { edits: [editMultiply] }],
  });
}

const start = (repo: string, agent: string, extra: string[] = []) =>
  execa(process.execPath, [CLI, ...base, ...extra, '--agent-cmd', agentCmd(agent)], {
    cwd: repo,
    reject: false,
    env: { FORCE_COLOR: '0' },
  });

describe('isolated sessions on bad input: one line naming the fix, nothing lost', () => {
  it('starts from staged changes, which stay staged, and merges the fix into a file staged and edited both', async () => {
    const repo = makeRepo(CALC, { 'notes.txt': 'notes\n' });
    const calc = readFileSync(join(repo, 'src/calc.js'), 'utf8');
    // Staged: a new line at the end of the file the agent fixes, and a new file; unstaged on top: another line.
    writeFileSync(join(repo, 'src/calc.js'), `${calc}// staged by the user\n`);
    writeFileSync(join(repo, 'src/staged.js'), 'export const staged = 1;\n');
    git(repo, 'add', 'src/calc.js', 'src/staged.js');
    writeFileSync(join(repo, 'src/calc.js'), `${calc}// staged by the user\n// unstaged by the user\n`);
    const agent = scenario({
      analyze: [planAdd, planMultiply],
      fix: [{ edits: [editAdd] }, { edits: [editMultiply] }],
    });
    const run = await runCli(repo, [...base, '--agent-cmd', agentCmd(agent.path)]);
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    expect(git(repo, 'status', '--porcelain')).toBe('MM src/calc.js\nA  src/staged.js');
    // The index holds the fixes and the staged line, not the unstaged one; the working copy holds all.
    const staged = git(repo, 'show', ':src/calc.js');
    expect(staged).toContain('return a + b;');
    expect(staged).toContain('// staged by the user');
    expect(staged).not.toContain('unstaged');
    const working = readFileSync(join(repo, 'src/calc.js'), 'utf8');
    expect(working).toContain('return a * b;');
    expect(working).toContain('// unstaged by the user');
    // No fixcycle commit holds a line of the user's.
    expect(git(repo, 'log', '-p', '--format=%s', 'main~2..main')).not.toMatch(/by the user|staged = 1/);
    expect(git(repo, 'log', '--format=%s', 'main').split('\n')).toHaveLength(3);
  });

  it('--in-place refuses staged changes in one line naming the ways out, touching nothing', async () => {
    const repo = makeRepo(CALC);
    writeFileSync(join(repo, 'src/staged.js'), 'export const staged = 1;\n');
    git(repo, 'add', 'src/staged.js');
    const run = await runCli(repo, [...base, '--in-place', '--agent-cmd', 'true']);
    expect(run.exitCode).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/uncommitted changes \(src\/staged\.js\): commit or stash them.*drop --in-place/);
    expect(git(repo, 'status', '--porcelain')).toBe('A  src/staged.js');
    expect(git(repo, 'log', '--format=%s')).toBe('initial');
  });

  it('leaves the fixes on the session branch when the user switched branches under the loop, with the command for the right branch', async () => {
    const repo = makeRepo(CALC);
    const agent = twoFixes(2500);
    const child = start(repo, agent.path);
    await waitFor(() => state(repo).iterations.length === 2, 'the second iteration');
    git(repo, 'switch', '-q', '-c', 'other');
    writeFileSync(join(repo, 'other.txt'), 'work on the other branch\n');
    const run = await child;
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    const s = state(repo);
    expect(s.worktree.handback.status).toBe('waiting');
    const line = run.stdout.split('\n').find((l) => l.includes('fixes waiting on'))!;
    expect(line).toMatch(
      /you switched to other while the loop ran \(it started on main\): nothing of yours was written/,
    );
    expect(line).toContain(`to take them: git switch main && git cherry-pick `);
    // Neither branch got a fix; the user's tree on `other` is as they left it.
    expect(git(repo, 'log', '--format=%s', 'main')).toBe('initial');
    expect(git(repo, 'log', '--format=%s', 'other')).toBe('initial');
    expect(git(repo, 'status', '--porcelain')).toBe('?? other.txt');
    expect(git(repo, 'log', '--format=%s', s.worktree.branch).split('\n')).toHaveLength(3);
    // The one command takes them onto main, where the tests pass.
    const taken = await execa('sh', ['-c', s.worktree.handback.command], { cwd: repo, reject: false });
    expect(taken.exitCode, taken.stderr).toBe(0);
    expect(git(repo, 'symbolic-ref', '--short', 'HEAD')).toBe('main');
    expect((await execa('node', ['--test'], { cwd: repo, reject: false })).exitCode).toBe(0);
  }, 120_000);

  it('stops in one line when the worktree is removed by hand mid-run, and the resume makes it again and hands back', async () => {
    const repo = makeRepo(CALC);
    writeFileSync(join(repo, 'src/mine.js'), 'export const mine = 1;\n');
    const agent = twoFixes(3000);
    const child = start(repo, agent.path);
    await waitFor(() => state(repo).iterations.length === 2, 'the second iteration');
    const { dir, branch } = state(repo).worktree;
    rmSync(dir, { recursive: true, force: true });
    const run = await child;
    expect(run.exitCode, run.stdout + run.stderr).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/the session's worktree .* was removed while the loop ran: .*--resume-session WFS-/);
    // Nothing recorded from the lost worktree: the session still waits at iteration 2.
    const s = state(repo);
    expect(s.next_action).toBe('execute_fix_task');
    expect(s.iterations.filter((i: { completed_at?: string }) => i.completed_at)).toHaveLength(1);
    expect(git(repo, 'log', '--format=%s', 'main')).toBe('initial');
    expect(git(repo, 'status', '--porcelain')).toBe('?? src/mine.js');

    const resumed = await runCli(repo, [...base, '--resume-session', '--agent-cmd', agentCmd(agent.path)]);
    expect(resumed.exitCode, resumed.stdout + resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain(`made again from ${branch}`);
    expect(git(repo, 'log', '--format=%s', 'main').split('\n')).toHaveLength(3);
    expect(readFileSync(join(repo, 'src/mine.js'), 'utf8')).toBe('export const mine = 1;\n');
    expect((await execa('node', ['--test'], { cwd: repo, reject: false })).exitCode).toBe(0);
    expect(existsSync(dir)).toBe(false);
  }, 120_000);

  it('works in a shallow clone as in a full one', async () => {
    const origin = makeRepo(CALC);
    writeFileSync(join(origin, 'README.md'), 'second\n');
    git(origin, 'add', '-A');
    git(origin, 'commit', '-qm', 'second');
    const repo = join(origin, '..', `${origin.split('/').at(-1)}-shallow`);
    git(origin, 'clone', '-q', '--depth', '1', `file://${origin}`, repo);
    try {
      git(repo, 'config', 'user.name', 'fixcycle test');
      git(repo, 'config', 'user.email', 'test@fixcycle.invalid');
      expect(git(repo, 'rev-parse', '--is-shallow-repository')).toBe('true');
      const agent = scenario({
        analyze: [planAdd, planMultiply],
        fix: [{ edits: [editAdd] }, { edits: [editMultiply] }],
      });
      const run = await runCli(repo, [...base, '--agent-cmd', agentCmd(agent.path)]);
      expect(run.exitCode, run.stdout + run.stderr).toBe(0);
      expect(run.stdout).toMatch(/fixes handed back to main by fast-forward \(2 commit\(s\)\)/);
      expect(git(repo, 'log', '--format=%s').split('\n')).toHaveLength(3);
      expect(git(repo, 'status', '--porcelain')).toBe('');
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });
  it('clears what a start killed before its state was saved left under a --session-name, and refuses a branch with commits', async () => {
    const repo = makeRepo(CALC);
    // What a start killed at that moment leaves: the session's branch at a snapshot commit, its worktree, no state.
    git(repo, 'branch', 'fixcycle/WFS-test-k');
    const left = sessionWorktreeDir(join(repo, '.git'), 'WFS-test-k');
    git(repo, 'worktree', 'add', '-q', left, 'fixcycle/WFS-test-k');
    writeFileSync(join(left, 'wip.txt'), 'the user wip\n');
    git(left, 'add', '-A');
    git(left, 'commit', '-qm', 'fixcycle: your uncommitted changes as session WFS-test-k started');
    const agent = scenario({
      analyze: [planAdd, planMultiply],
      fix: [{ edits: [editAdd] }, { edits: [editMultiply] }],
    });
    const run = await runCli(repo, [...base, '--session-name', 'k', '--agent-cmd', agentCmd(agent.path)]);
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    expect(existsSync(left)).toBe(false);
    expect(git(repo, 'log', '--format=%s', 'main').split('\n')).toHaveLength(3);

    // A branch of that name with a commit of its own is someone's work: refused in one line, kept.
    git(repo, 'branch', 'fixcycle/WFS-test-j');
    git(repo, 'switch', '-q', 'fixcycle/WFS-test-j');
    writeFileSync(join(repo, 'mine.txt'), 'mine\n');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'my own commit');
    git(repo, 'switch', '-q', 'main');
    const refused = await runCli(repo, [...base, '--session-name', 'j', '--agent-cmd', agentCmd(agent.path)]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(refused.stderr).toMatch(
      /a branch fixcycle\/WFS-test-j is left .* 1 commit\(s\) of its own: .*pick another --session-name/,
    );
    expect(git(repo, 'log', '--format=%s', '-1', 'fixcycle/WFS-test-j')).toBe('my own commit');
  }, 120_000);
});
