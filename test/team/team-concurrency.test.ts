import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { fromCsv } from '../../src/engine/team/tasks-csv.js';
import { CLI, git, removeRepos, runCli } from '../helpers/repo.js';
import { agentDir, calls, teamAgentCmd, teamRepo, teamSession } from './team-helpers.js';

afterAll(removeRepos);

function tasksOf(dir: string) {
  return Object.fromEntries(fromCsv(readFileSync(join(dir, 'tasks.csv'), 'utf8')).map((t) => [t.id, t]));
}

async function until(check: () => boolean, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('fixcycle team: concurrent waves and resuming', () => {
  it('comprehensive: two generators of one wave run at the same time in their own worktrees and both sets of tests land', async () => {
    const repo = teamRepo();
    const agent = agentDir();
    const run = await runCli(repo, ['team', '--headless', '--pipeline', 'comprehensive', '--agent-cmd', teamAgentCmd(agent, 'standard', 1500)], { timeoutMs: 180_000 });
    const out = run.stdout + run.stderr;
    expect(run.exitCode, out).toBe(0);
    const tasks = tasksOf(teamSession(repo));
    expect(Object.values(tasks).map((t) => `${t.id}:${t.wave}`)).toEqual(['STRATEGY-001:1', 'TESTGEN-001:2', 'TESTGEN-002:2', 'TESTRUN-001:3', 'TESTRUN-002:3', 'TESTGEN-003:4', 'TESTRUN-003:5', 'TESTANA-001:6']);
    expect(Object.values(tasks).every((t) => t.status === 'completed')).toBe(true);
    const gen = calls(agent).filter((c) => c.gc === '0' && (c.task === 'TESTGEN-001' || c.task === 'TESTGEN-002'));
    expect(gen).toHaveLength(2);
    // They overlapped in time: each started before the other ended.
    expect(gen[0]!.start).toBeLessThan(gen[1]!.end);
    expect(gen[1]!.start).toBeLessThan(gen[0]!.end);
    expect(out).toMatch(/\[TESTGEN-001 generator L1 wave 2\] running: in its own worktree/);
    expect(out).toMatch(/\[TESTGEN-002 generator L2 wave 2\] running: in its own worktree/);
    // Both sets landed on the branch, merged in task order; no worktree is left.
    const subjects = git(repo, 'log', '--format=%s').split('\n');
    const i1 = subjects.findIndex((s) => s.startsWith('test-team: TESTGEN-001 L1 tests (tst-'));
    const i2 = subjects.findIndex((s) => s.startsWith('test-team: TESTGEN-002 L2 tests (tst-'));
    expect(i1).toBeGreaterThan(i2);
    for (const f of ['test/slug.test.js', 'test/integration.test.js', 'test/e2e.test.js', 'test/stats.test.js']) expect(existsSync(join(repo, f)), f).toBe(true);
    expect(git(repo, 'worktree', 'list').trim().split('\n')).toHaveLength(1);
    expect(git(repo, 'status', '--porcelain')).toBe('');
  }, 240_000);

  it('kill -9 mid-wave, then --continue finishes without redoing finished tasks', async () => {
    const repo = teamRepo();
    const agent = agentDir();
    writeFileSync(join(agent, 'hang-TESTGEN-002'), '');
    const child = execa(process.execPath, [CLI, 'team', '--headless', '--pipeline', 'comprehensive', '--agent-cmd', teamAgentCmd(agent)], { cwd: repo, reject: false, env: { FORCE_COLOR: '0' } });
    await until(() => existsSync(join(agent, 'hanging-TESTGEN-002')) && existsSync(join(repo, '.workflow/.csv-wave')) && /"TESTGEN-001",.*"completed"/.test(readFileSync(join(teamSession(repo), 'tasks.csv'), 'utf8')), 60_000);
    child.kill('SIGKILL');
    await child;
    const hung = Number(readFileSync(join(agent, 'hanging-TESTGEN-002'), 'utf8'));
    try {
      process.kill(hung, 'SIGKILL');
    } catch {
      // already gone
    }
    const dir = teamSession(repo);
    const before = tasksOf(dir);
    expect(before['STRATEGY-001']!.status).toBe('completed');
    expect(before['TESTGEN-001']!.status).toBe('completed');
    expect(before['TESTGEN-002']!.status).toBe('running');
    expect(existsSync(join(dir, 'wave-2.csv'))).toBe(true);
    expect(readdirSync(join(dir, 'worktrees'))).toEqual(['TESTGEN-002']);

    const resumed = await runCli(repo, ['team', '--headless', '--continue', '--agent-cmd', teamAgentCmd(agent)], { timeoutMs: 180_000 });
    const out = resumed.stdout + resumed.stderr;
    expect(resumed.exitCode, out).toBe(0);
    expect(out).toMatch(/resuming tst-change-/);
    const after = tasksOf(dir);
    expect(Object.values(after).every((t) => t.status === 'completed')).toBe(true);
    const seen = calls(agent).map((c) => `${c.role} ${c.task} ${c.gc}`);
    // The finished tasks ran once; the interrupted one ran again (its hung call never logged).
    expect(seen.filter((s) => s === 'analyze STRATEGY-001 0')).toHaveLength(1);
    expect(seen.filter((s) => s === 'generate TESTGEN-001 0')).toHaveLength(1);
    expect(seen.filter((s) => s === 'generate TESTGEN-002 0')).toHaveLength(1);
    expect(git(repo, 'log', '--format=%s').split('\n').filter((s) => s.startsWith('test-team: TESTGEN-001 L1 tests (tst-'))).toHaveLength(1);
    expect(git(repo, 'worktree', 'list').trim().split('\n')).toHaveLength(1);
    expect(existsSync(join(dir, 'worktrees', 'TESTGEN-002'))).toBe(false);
  }, 240_000);
});

describe('fixcycle team: merging worktrees', () => {
  it('a conflict when merging a worktree back re-runs the later task on the merged tree', async () => {
    const repo = teamRepo();
    const agent = agentDir();
    const run = await runCli(repo, ['team', '--headless', '--pipeline', 'comprehensive', '--agent-cmd', teamAgentCmd(agent, 'conflict')], { timeoutMs: 180_000 });
    const out = run.stdout + run.stderr;
    expect(out).toMatch(/\[TESTGEN-002 generator L2 wave 2\] running: its tests conflict with an earlier task of the wave: running it again on the merged tree/);
    const shared = readFileSync(join(repo, 'test/shared.test.js'), 'utf8');
    expect(shared).toMatch(/TESTGEN-001 shared/);
    expect(shared).toMatch(/TESTGEN-002 shared/);
    expect(calls(agent).filter((c) => c.task === 'TESTGEN-002' && c.gc === '0')).toHaveLength(2);
    const tasks = tasksOf(teamSession(repo));
    expect(tasks['TESTGEN-002']!.status).toBe('completed');
    expect(git(repo, 'status', '--porcelain')).toBe('');
  }, 240_000);
});
