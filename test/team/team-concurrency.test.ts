import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { fromCsv } from '../../src/engine/team/tasks-csv.js';
import { CLI, git, removeRepos, runCli } from '../helpers/repo.js';
import { agentDir, calls, teamAgentCmd, teamRepo, teamSession } from './team-helpers.js';
import { activeDir, workflowDir } from '../../src/engine/session/paths.js';

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
    const run = await runCli(
      repo,
      ['team', '--headless', '--pipeline', 'comprehensive', '--agent-cmd', teamAgentCmd(agent, 'standard', 1500)],
      { timeoutMs: 180_000 },
    );
    const out = run.stdout + run.stderr;
    expect(run.exitCode, out).toBe(0);
    const tasks = tasksOf(teamSession(repo));
    expect(Object.values(tasks).map((t) => `${t.id}:${t.wave}`)).toEqual([
      'STRATEGY-001:1',
      'TESTGEN-001:2',
      'TESTGEN-002:2',
      'TESTRUN-001:3',
      'TESTRUN-002:3',
      'TESTGEN-003:4',
      'TESTRUN-003:5',
      'TESTANA-001:6',
    ]);
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
    for (const f of ['test/slug.test.js', 'test/integration.test.js', 'test/e2e.test.js', 'test/stats.test.js'])
      expect(existsSync(join(repo, f)), f).toBe(true);
    expect(git(repo, 'worktree', 'list').trim().split('\n')).toHaveLength(1);
    expect(git(repo, 'status', '--porcelain')).toBe('');
  }, 240_000);

  it('comprehensive: the two executors of one wave measure, GC and fix at the same time in their own worktrees, and both results land', async () => {
    const repo = teamRepo({ bug: true });
    const agent = agentDir();
    const run = await runCli(
      repo,
      ['team', '--json', '--pipeline', 'comprehensive', '--agent-cmd', teamAgentCmd(agent, 'standard', 800)],
      { timeoutMs: 300_000 },
    );
    expect(run.exitCode, run.stderr).toBe(0);
    const events = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; id?: string; status?: string; detail?: string });
    const at = (id: string, check: (e: (typeof events)[number]) => boolean) =>
      events.findIndex((e) => e.type === 'team-task' && e.id === id && check(e));
    const working = ['TESTRUN-001', 'TESTRUN-002'].map((id) =>
      at(id, (e) => e.status === 'running' && /^in its own worktree/.test(e.detail ?? '')),
    );
    const done = ['TESTRUN-001', 'TESTRUN-002'].map((id) => at(id, (e) => e.status === 'completed'));
    // Each executor was at work in its worktree before either finished: with one after the other, the second would
    // only have started once the first completed.
    expect(Math.min(...working)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...working)).toBeLessThan(Math.min(...done));
    // The fix loops inside the executors speak through the team session: one session, one end.
    expect(events.filter((e) => e.type === 'session')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'done')).toHaveLength(1);
    // Their agent calls (L1's GC round and fix cycle, L2's fix cycle) ran in their worktrees and overlapped in time.
    const span = (id: string) => {
      const mine = calls(agent).filter((c) => c.cwd.includes(`/worktrees/${id}`));
      return {
        n: mine.length,
        roles: mine.map((c) => c.role),
        start: Math.min(...mine.map((c) => c.start)),
        end: Math.max(...mine.map((c) => c.end)),
      };
    };
    const l1 = span('TESTRUN-001');
    const l2 = span('TESTRUN-002');
    expect(l1.roles).toEqual(expect.arrayContaining(['generate', 'analyze', 'fix']));
    expect(l2.roles).toEqual(expect.arrayContaining(['analyze', 'fix']));
    expect(l1.start).toBeLessThan(l2.end);
    expect(l2.start).toBeLessThan(l1.end);
    // Both results landed: each layer's run file and row, the GC round's tests and the fix on the branch.
    const dir = teamSession(repo);
    const tasks = tasksOf(dir);
    expect(
      Object.values(tasks).every((t) => t.status === 'completed'),
      JSON.stringify(tasks),
    ).toBe(true);
    for (const [id, layer] of [
      ['TESTRUN-001', 'L1'],
      ['TESTRUN-002', 'L2'],
    ] as const) {
      const result = JSON.parse(readFileSync(join(dir, `results/run-${layer}.json`), 'utf8')) as {
        pass_rate: number;
        coverage: number;
      };
      expect(result.pass_rate, layer).toBe(1);
      expect(tasks[id]!.pass_rate).toBe('1');
      expect(Number(tasks[id]!.coverage_achieved)).toBeGreaterThanOrEqual(layer === 'L1' ? 80 : 60);
    }
    expect(readFileSync(join(repo, 'src/math/stats.js'), 'utf8')).toContain('(sorted[mid - 1] + sorted[mid]) / 2');
    expect(git(repo, 'log', '--format=%s').split('\n')).toContainEqual(
      expect.stringMatching(/^test-team: TESTGEN-001 L1 tests \(GC round 1\)/),
    );
    expect(existsSync(join(repo, 'test/stats.test.js'))).toBe(true);
    expect(git(repo, 'worktree', 'list').trim().split('\n')).toHaveLength(1);
    expect(git(repo, 'branch', '--list', 'fixcycle-team-*').trim()).toBe('');
    // The fix loops' sessions, run in the worktrees, are kept in the main tree.
    const loops = readdirSync(activeDir(repo));
    expect(
      loops.some((n) => /testrun-001/.test(n)),
      loops.join(', '),
    ).toBe(true);
    expect(
      loops.some((n) => /testrun-002/.test(n)),
      loops.join(', '),
    ).toBe(true);
    expect(git(repo, 'status', '--porcelain')).toBe('');
  }, 360_000);

  it('kill -9 mid-wave, then --continue finishes without redoing finished tasks', async () => {
    const repo = teamRepo();
    const agent = agentDir();
    writeFileSync(join(agent, 'hang-TESTGEN-002'), '');
    const child = execa(
      process.execPath,
      [CLI, 'team', '--headless', '--pipeline', 'comprehensive', '--agent-cmd', teamAgentCmd(agent)],
      { cwd: repo, reject: false, env: { FORCE_COLOR: '0' } },
    );
    await until(
      () =>
        existsSync(join(agent, 'hanging-TESTGEN-002')) &&
        existsSync(join(workflowDir(repo), '.csv-wave')) &&
        /"TESTGEN-001",.*"completed"/.test(readFileSync(join(teamSession(repo), 'tasks.csv'), 'utf8')),
      60_000,
    );
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

    const resumed = await runCli(repo, ['team', '--headless', '--continue', '--agent-cmd', teamAgentCmd(agent)], {
      timeoutMs: 180_000,
    });
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
    expect(
      git(repo, 'log', '--format=%s')
        .split('\n')
        .filter((s) => s.startsWith('test-team: TESTGEN-001 L1 tests (tst-')),
    ).toHaveLength(1);
    expect(git(repo, 'worktree', 'list').trim().split('\n')).toHaveLength(1);
    expect(existsSync(join(dir, 'worktrees', 'TESTGEN-002'))).toBe(false);
  }, 240_000);
});

describe('fixcycle team: resuming an executor wave', () => {
  it('kill -9 while both executors work in their worktrees: --continue cleans them up, counts GC rounds from where they began and finishes', async () => {
    const repo = teamRepo();
    const agent = agentDir();
    // L1's executor hangs in its GC round; L2's finishes its work and waits to merge after L1.
    writeFileSync(join(agent, 'hang-TESTGEN-001-gc1'), '');
    const child = execa(
      process.execPath,
      [CLI, 'team', '--headless', '--pipeline', 'comprehensive', '--agent-cmd', teamAgentCmd(agent)],
      { cwd: repo, reject: false, env: { FORCE_COLOR: '0' } },
    );
    await until(() => existsSync(join(agent, 'hanging-TESTGEN-001')), 90_000);
    child.kill('SIGKILL');
    await child;
    try {
      process.kill(Number(readFileSync(join(agent, 'hanging-TESTGEN-001'), 'utf8')), 'SIGKILL');
    } catch {
      // already gone
    }
    const dir = teamSession(repo);
    expect(readdirSync(join(dir, 'worktrees')).sort()).toEqual(['TESTRUN-001', 'TESTRUN-002']);
    expect(git(repo, 'branch', '--list', 'fixcycle-team-*').trim().split('\n')).toHaveLength(2);
    const killed = JSON.parse(readFileSync(join(dir, 'gc-state.json'), 'utf8')) as {
      rounds: Record<string, number>;
      started: Record<string, number>;
    };
    expect(killed.rounds.L1).toBe(1);
    expect(killed.started).toEqual({ L1: 0, L2: 0 });
    // The main tree saw nothing of the wave: its GC round's tests were in the worktree only.
    expect(existsSync(join(repo, 'test/stats.test.js'))).toBe(false);
    expect(git(repo, 'status', '--porcelain')).toBe('');

    const resumed = await runCli(repo, ['team', '--headless', '--continue', '--agent-cmd', teamAgentCmd(agent)], {
      timeoutMs: 180_000,
    });
    expect(resumed.exitCode, resumed.stdout + resumed.stderr).toBe(0);
    expect(Object.values(tasksOf(dir)).every((t) => t.status === 'completed')).toBe(true);
    const gc = JSON.parse(readFileSync(join(dir, 'gc-state.json'), 'utf8')) as {
      rounds: Record<string, number>;
      started?: Record<string, number>;
    };
    expect(gc.rounds.L1).toBe(1);
    expect(gc.started ?? {}).toEqual({});
    expect(calls(agent).filter((c) => c.task === 'TESTGEN-001' && c.gc === '0')).toHaveLength(1);
    expect(existsSync(join(repo, 'test/stats.test.js'))).toBe(true);
    expect(git(repo, 'worktree', 'list').trim().split('\n')).toHaveLength(1);
    expect(git(repo, 'branch', '--list', 'fixcycle-team-*').trim()).toBe('');
    expect(git(repo, 'status', '--porcelain')).toBe('');
  }, 300_000);
});

describe('fixcycle team: merging worktrees', () => {
  it('a conflict when merging a worktree back re-runs the later task on the merged tree', async () => {
    const repo = teamRepo();
    const agent = agentDir();
    const run = await runCli(
      repo,
      ['team', '--headless', '--pipeline', 'comprehensive', '--agent-cmd', teamAgentCmd(agent, 'conflict')],
      { timeoutMs: 180_000 },
    );
    const out = run.stdout + run.stderr;
    expect(out).toMatch(
      /\[TESTGEN-002 generator L2 wave 2\] running: its tests conflict with an earlier task of the wave: running it again on the merged tree/,
    );
    const shared = readFileSync(join(repo, 'test/shared.test.js'), 'utf8');
    expect(shared).toMatch(/TESTGEN-001 shared/);
    expect(shared).toMatch(/TESTGEN-002 shared/);
    expect(calls(agent).filter((c) => c.task === 'TESTGEN-002' && c.gc === '0')).toHaveLength(2);
    const tasks = tasksOf(teamSession(repo));
    expect(tasks['TESTGEN-002']!.status).toBe('completed');
    expect(git(repo, 'status', '--porcelain')).toBe('');
  }, 240_000);
});
