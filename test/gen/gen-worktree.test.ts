// `fixcycle gen` beside a person who keeps coding: gen works in a worktree of its own, the user's saves while it
// runs are never committed or overwritten, and gen's commits come back at the end, merged into their changes.
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listlibFeatureRepo, userSavingAgent } from '../helpers/gen-run.js';
import { afterAll, describe, expect, it } from 'vitest';
import { git, readJson, removeRepos, ROOT, runCli } from '../helpers/repo.js';
import { activeDir } from '../../src/engine/session/paths.js';

afterAll(removeRepos);

const AGENT = join(ROOT, 'test/fixtures/agents/gen-agent.mjs');
// The user's saves, made by the agent command on the agent's first call (gen's analysis), in the user's tree.
const USER_LINE = '// work in progress: a zip() is coming here';

describe('fixcycle gen in its own worktree', () => {
  it("never commits or overwrites what the user saves while it runs; its tests and fixes come back merged into the user's changes", async () => {
    const repo = listlibFeatureRepo();
    const start = git(repo, 'rev-parse', 'HEAD').trim();
    const agent = mkdtempSync(join(tmpdir(), 'fixcycle-gen-agent-'));
    const run = await runCli(
      repo,
      [
        'gen',
        '--headless',
        '--agent-cmd',
        userSavingAgent(AGENT, repo, agent, { 'src/listutil.js': `${USER_LINE}\n`, 'notes.txt': 'todo\n' }),
      ],
      {
        timeoutMs: 360_000,
      },
    );
    const out = run.stdout + run.stderr;
    expect(run.exitCode, out).toBe(0);
    expect(existsSync(join(agent, 'saved'))).toBe(true);
    expect(out).toMatch(/gen works in its own worktree on fixcycle\/WFS-/);

    // gen's commits are on the user's branch, on top of where it was: the kept tests and the fix of chunk().
    const subjects = git(repo, 'log', '--format=%s', `${start}..HEAD`).split('\n');
    expect(subjects.some((s) => s.startsWith('test-gen: IMPL-001'))).toBe(true);
    expect(subjects.some((s) => s.startsWith('test-cycle: iteration'))).toBe(true);
    expect(out).toMatch(
      /fixes handed back to feature by fast-forward .*merged into your uncommitted changes in src\/listutil\.js/,
    );

    // The user's saves are theirs: still in their working copy, uncommitted, in no commit of gen's.
    const text = readFileSync(join(repo, 'src/listutil.js'), 'utf8');
    expect(text).toContain(USER_LINE);
    expect(git(repo, 'show', 'HEAD:src/listutil.js')).not.toContain(USER_LINE);
    expect(git(repo, 'log', '-p', `${start}..HEAD`)).not.toContain('work in progress');
    expect(git(repo, 'status', '--porcelain')).toContain(' M src/listutil.js');
    expect(readFileSync(join(repo, 'notes.txt'), 'utf8')).toBe('todo\n');
    expect(git(repo, 'ls-files', 'notes.txt').trim()).toBe('');
    // The fix came into the same file around the user's line: the working copy is HEAD's plus the user's line.
    expect(text).toBe(`${git(repo, 'show', 'HEAD:src/listutil.js')}\n${USER_LINE}\n`);

    // The session ended: its worktree and branch are gone, and its state says how the commits came back.
    const dir = join(activeDir(repo), readdirSync(activeDir(repo))[0]!);
    const state = readJson(join(dir, '.process/gen-state.json'));
    expect(state).toMatchObject({ in_place: false, step: 'done', worktree: { handback: { status: 'applied' } } });
    expect(existsSync(state.worktree.dir)).toBe(false);
    expect(git(repo, 'branch', '--list', 'fixcycle/*').trim()).toBe('');
  }, 400_000);

  it('--plan-only keeps its worktree, which status lists, until the resumed session ends and hands its commits back', async () => {
    const repo = listlibFeatureRepo();
    const start = git(repo, 'rev-parse', 'HEAD').trim();
    const agent = mkdtempSync(join(tmpdir(), 'fixcycle-gen-agent-'));
    const cmd = `${process.execPath} ${AGENT} ${agent}`;
    const plan = await runCli(repo, ['gen', '--plan-only', '--headless', '--agent-cmd', cmd], { timeoutMs: 120_000 });
    expect(plan.exitCode, plan.stdout + plan.stderr).toBe(0);
    expect(plan.stdout).toMatch(/gen's worktree stays at .* \(branch fixcycle\/WFS-test-/);
    const dir = join(activeDir(repo), readdirSync(activeDir(repo))[0]!);
    const { worktree } = readJson(join(dir, '.process/gen-state.json'));
    expect(existsSync(worktree.dir)).toBe(true);
    const status = await runCli(repo, ['status']);
    expect(status.stdout + status.stderr, status.stdout).toMatch(
      new RegExp(`gen planned \\(--plan-only\\)\\s+on ${worktree.branch}`),
    );
    expect(git(repo, 'rev-parse', 'HEAD').trim()).toBe(start);
    expect(git(repo, 'status', '--porcelain', '--untracked-files=all')).toBe('');

    const resumed = await runCli(repo, ['run', '--resume-session', '--headless', '--agent-cmd', cmd], {
      timeoutMs: 360_000,
    });
    expect(resumed.exitCode, resumed.stdout + resumed.stderr).toBe(0);
    expect(resumed.stdout).toMatch(/fixes handed back to feature by fast-forward/);
    expect(git(repo, 'log', '--format=%s', `${start}..HEAD`)).toMatch(/test-gen: IMPL-001/);
    expect(existsSync(worktree.dir)).toBe(false);
  }, 400_000);

  it("--in-place works in the user's tree and commits on their branch as it goes, with no worktree", async () => {
    const repo = listlibFeatureRepo();
    const agent = mkdtempSync(join(tmpdir(), 'fixcycle-gen-agent-'));
    const run = await runCli(
      repo,
      ['gen', '--in-place', '--headless', '--agent-cmd', `${process.execPath} ${AGENT} ${agent}`],
      { timeoutMs: 360_000 },
    );
    const out = run.stdout + run.stderr;
    expect(run.exitCode, out).toBe(0);
    expect(out).not.toMatch(/worktree/);
    expect(
      git(repo, 'log', '--format=%s')
        .split('\n')
        .some((s) => s.startsWith('test-gen: IMPL-001')),
    ).toBe(true);
    const dir = join(activeDir(repo), readdirSync(activeDir(repo))[0]!);
    const state = readJson(join(dir, '.process/gen-state.json'));
    expect(state.in_place).toBe(true);
    expect(state.worktree).toBeUndefined();
    expect(git(repo, 'branch', '--list', 'fixcycle/*').trim()).toBe('');
  }, 400_000);
});
