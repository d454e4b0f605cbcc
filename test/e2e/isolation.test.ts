import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { agentCmd, execa, git, makeRepo, removeRepos, runCli, scenario, state } from '../helpers/repo.js';
import { editAdd, editMultiply, editsBreakFormat, planAdd, planMultiply } from './plans.js';
import { userAtWork } from './user-at-work.js';

afterAll(removeRepos);

const CALC = 'projects-loop/calc';
const base = ['run', '--headless', '--test-cmd', 'node --test'];

describe('the loop beside a user who keeps saving', () => {
  it("never commits, reverts or overwrites what the user saves, and hands the fixes back to the user's branch", async () => {
    const repo = makeRepo(CALC, { 'notes.txt': 'my notes\n' });
    // A regressing fix first (rolled back), then the two real ones; each step takes a while, as real agents do.
    const agent = scenario({
      analyze: [planAdd, planAdd, planMultiply].map((p) => ({ ...p, sleepMs: 700 })),
      fix: [{ edits: editsBreakFormat }, { edits: [editAdd] }, { edits: [editMultiply] }].map((f) => ({
        ...f,
        sleepMs: 700,
      })),
    });
    const user = userAtWork(repo);
    const run = await runCli(repo, [...base, '--agent-cmd', agentCmd(agent.path)], { timeoutMs: 240_000 });
    user.stop();
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    expect(user.count).toBeGreaterThan(8);
    const s = state(repo);
    expect(s.iterations.map((i: any) => i.result)).toEqual(['regressed_rolled_back', 'improved', 'improved']);

    // Every line the user saved is in their tree, and the fixes too (merged into their uncommitted file).
    const calc = readFileSync(join(repo, 'src/calc.js'), 'utf8');
    for (const line of user.lines) expect(calc).toContain(line);
    expect(calc).toContain('return a + b;');
    expect(calc).toContain('return a * b;');
    for (const [file, content] of user.notes) expect(readFileSync(join(repo, file), 'utf8')).toBe(content);
    const notes = readFileSync(join(repo, 'notes.txt'), 'utf8');
    for (const line of user.readme) expect(notes).toContain(line);

    // The fixes are on the user's branch; no fixcycle commit holds a line of the user's.
    const subjects = git(repo, 'log', '--format=%s', 'main').split('\n');
    expect(subjects.filter((m) => m.startsWith('test-cycle: iteration'))).toHaveLength(3);
    expect(subjects.at(-1)).toBe('initial');
    const committed = git(repo, 'log', '-p', '--format=%s', 'main~4..main');
    expect(committed).not.toMatch(/by the user/);
    expect(git(repo, 'show', 'main:src/calc.js')).not.toMatch(/by the user/);
    // What the user saved stays theirs: uncommitted.
    expect(git(repo, 'diff', 'HEAD', '--', 'src/calc.js')).toMatch(/^\+\/\/ saved by the user/m);
    expect(run.stdout).toMatch(/fixes handed back to main by fast-forward|fixes handed back to main by cherry-pick/);

    // The tests pass there, and the session's worktree and branch are gone.
    const tests = await execa('node', ['--test'], { cwd: repo, reject: false });
    expect(tests.exitCode, tests.stdout).toBe(0);
    expect(existsSync(s.worktree.dir)).toBe(false);
    expect(git(repo, 'branch', '--list', s.worktree.branch)).toBe('');
    expect(s.worktree.handback).toMatchObject({ status: 'applied', merged: expect.arrayContaining(['src/calc.js']) });
  }, 300_000);

  it('starts from the uncommitted changes the user has, and keeps them uncommitted', async () => {
    const repo = makeRepo(CALC);
    // The user's work in progress: add() fixed by hand, and a new untracked helper.
    const calc = readFileSync(join(repo, 'src/calc.js'), 'utf8');
    writeFileSync(join(repo, 'src/calc.js'), calc.replace('return a - b;', 'return a + b;'));
    writeFileSync(join(repo, 'src/helper.js'), 'export const helper = 1;\n');
    const agent = scenario({ analyze: [planMultiply], fix: [{ edits: [editMultiply] }] });
    const run = await runCli(repo, [...base, '--agent-cmd', agentCmd(agent.path)]);
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    // The loop saw the user's add() fix: only multiply() failed there.
    expect(state(repo).initial_pass_rate).toBe(85);
    expect(git(repo, 'show', 'HEAD:src/calc.js')).toContain('return a - b;');
    expect(git(repo, 'show', 'HEAD:src/calc.js')).toContain('return a * b;');
    expect(git(repo, 'status', '--porcelain')).toBe(' M src/calc.js\n?? src/helper.js');
    expect(readFileSync(join(repo, 'src/calc.js'), 'utf8')).toContain('return a + b;');
  });

  it('keeps the fixes on the session branch with --no-apply and says the command that takes them', async () => {
    const repo = makeRepo(CALC);
    const agent = scenario({
      analyze: [planAdd, planMultiply],
      fix: [{ edits: [editAdd] }, { edits: [editMultiply] }],
    });
    const run = await runCli(repo, [...base, '--no-apply', '--agent-cmd', agentCmd(agent.path)]);
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    const s = state(repo);
    expect(git(repo, 'log', '--format=%s')).toBe('initial');
    expect(run.stdout).toContain(`fixes waiting on ${s.worktree.branch}`);
    expect(s.worktree.handback).toMatchObject({
      status: 'waiting',
      command: expect.stringMatching(/^git cherry-pick /),
    });
    expect(existsSync(s.worktree.dir)).toBe(false);
    const taken = await execa('sh', ['-c', s.worktree.handback.command], { cwd: repo, reject: false });
    expect(taken.exitCode, taken.stderr).toBe(0);
    expect((await execa('node', ['--test'], { cwd: repo, reject: false })).exitCode).toBe(0);
  });

  it('ranks by the change the session started from, never by files the user saves afterwards', async () => {
    const repo = makeRepo(CALC);
    // The user's uncommitted change (add() fixed by hand) is the change; during the analysis they save format.js.
    const calc = readFileSync(join(repo, 'src/calc.js'), 'utf8');
    writeFileSync(join(repo, 'src/calc.js'), calc.replace('return a - b;', 'return a + b;'));
    const agent = scenario({ analyze: [{ ...planMultiply, sleepMs: 1500 }], fix: [{ edits: [editMultiply] }] });
    const running = runCli(repo, [...base, '--json', '--agent-cmd', agentCmd(agent.path)]);
    await new Promise((r) => setTimeout(r, 1500));
    appendFileSync(join(repo, 'src/format.js'), '// saved by the user meanwhile\n');
    const run = await running;
    expect(run.exitCode, run.stderr).toBe(0);
    const suspects = run.stdout
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l))
      .find((e) => e.type === 'suspects');
    expect(suspects.localization.used).toContain('change');
    expect(JSON.stringify(suspects.localization)).not.toMatch(/format\.js[^"]*change/);
    expect(readFileSync(join(repo, 'src/format.js'), 'utf8')).toMatch(/saved by the user meanwhile/);
  });
});
