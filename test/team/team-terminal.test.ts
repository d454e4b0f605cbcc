// `fixcycle team` in a real pseudo-terminal: the pipeline offered with its numbers, switched by key, the waves
// running, a quit mid-run and --continue. Needs `npm run build`.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fromCsv } from '../../src/engine/team/tasks-csv.js';
import { spawnInPty, type PtyTerminal } from '../tui/pty-terminal.js';
import { CLI, git, removeRepos, runCli } from '../helpers/repo.js';
import { agentDir, calls, teamAgentCmd, teamRepo, teamSession } from './team-helpers.js';

let term: PtyTerminal | undefined;
afterAll(() => {
  term?.kill();
  removeRepos();
});

const statuses = (dir: string) =>
  Object.fromEntries(fromCsv(readFileSync(join(dir, 'tasks.csv'), 'utf8')).map((t) => [t.id, t.status]));

describe('fixcycle team in a terminal', () => {
  it('offers the pipeline with its numbers at 60 columns, switches it by key, runs the waves, quits with q and resumes with --continue', async () => {
    const repo = teamRepo();
    const agent = agentDir();
    term = spawnInPty(process.execPath, [CLI, 'team', '--agent-cmd', teamAgentCmd(agent, 'standard', 700)], {
      columns: 60,
      rows: 24,
      cwd: repo,
    });
    let screen = await term.waitFor('enter to start', 60_000);
    expect(term.buffer()).toBe('alternate');
    expect(screen).toContain('standard (2 files, 2 modules: src/math, src/text)');
    expect(screen).toContain('detected standard: 2 file(s) <= 10 and 2 module(s) <= 3');
    expect(screen).toMatch(/▸ s standard +6 tasks\n +strategy → gen L1 → run L1 → gen L2 → run L2 → analysis\n/);
    expect(screen).toContain('t targeted · s standard · c comprehensive');
    // Nothing starts before enter: no session, no agent call.
    expect(calls(agent)).toEqual([]);
    term.press('c');
    screen = await term.waitFor('▸ c comprehensive');
    expect(screen).toContain('comprehensive (2 files, 2 modules: src/math, src/text)');
    expect(screen).toMatch(
      /▸ c comprehensive 8 tasks\n +strategy → \[gen L1 ∥ gen L2\] → \[run L1 ∥ run L2\] →\n +gen L3 → run L3 → analysis\n/,
    );
    expect(screen).toMatch(/^ {2}s standard +6 tasks/m);
    // The keys are in the help overlay too.
    term.press('?');
    screen = await term.waitFor(/t +team, before it starts: offer the targeted/);
    term.press('?');
    await term.waitFor('enter to start');
    term.press('\r');
    // At 60 columns: what runs now, and every task's mark with a short id.
    screen = await term.waitFor((s) => /Wave [2-6]\/6 TEST/.test(s) && /✓S1 /.test(s), 60_000);
    expect(screen).toMatch(/S1 .G1 .G2 .R1 .R2 .G3 .R3 .A1/);
    for (const row of term.rows()) expect(row.length).toBeLessThanOrEqual(60);
    term.resize(120, 50);
    // The waves with each task's role, layer and status; the coverage bars; the discovery board.
    screen = await term.waitFor((s) => /coverage L1 \[[█░]{10}\]/.test(s) && s.includes('Discovery board:'), 120_000);
    expect(screen).toMatch(/Wave 2/);
    expect(screen).toMatch(/TESTGEN-001 generator L1/);
    expect(screen).toMatch(/TESTGEN-002 generator L2/);
    expect(screen).toMatch(/TESTRUN-001 executor L1/);
    expect(screen).toContain('✓ STRATEGY-001 strategist strategy/test-strategy.md');
    term.press('q');
    await term.waitFor('Stop the loop now and leave?');
    term.press('y');
    const exit = await term.exited;
    expect(exit.exitCode).toBe(130);
    expect(term.buffer()).toBe('normal');

    const dir = teamSession(repo);
    const record = JSON.parse(readFileSync(join(dir, 'interactive/PHASE0-result.json'), 'utf8')) as {
      pipeline: string;
      accepted_by: string;
    };
    expect(record).toMatchObject({ pipeline: 'comprehensive', accepted_by: 'user' });
    const before = statuses(dir);
    expect(before['STRATEGY-001']).toBe('completed');
    expect(Object.values(before).filter((s) => s !== 'completed').length).toBeGreaterThan(0);
    const done = Object.keys(before).filter((id) => before[id] === 'completed');
    const callsBefore = calls(agent).length;

    const resumed = await runCli(repo, ['team', '--headless', '--continue', '--agent-cmd', teamAgentCmd(agent)], {
      timeoutMs: 180_000,
    });
    expect(resumed.exitCode, resumed.stdout + resumed.stderr).toBe(0);
    const after = statuses(dir);
    expect(
      Object.values(after).every((s) => s === 'completed'),
      JSON.stringify(after),
    ).toBe(true);
    // What was finished before the quit ran once only (a GC round of an interrupted executor calls its layer's
    // generator again, with FIXCYCLE_GC_ROUND set: that is the executor's work, not the generator task's).
    const later = calls(agent)
      .slice(callsBefore)
      .filter((c) => c.gc === '0')
      .map((c) => c.task);
    expect(later.length).toBeGreaterThan(0);
    for (const id of done) expect(later, id).not.toContain(id);
    expect(git(repo, 'status', '--porcelain')).toBe('');
  }, 360_000);

  it('runs to the end with both executors in fix cycles at once: the screen stays the team session until the last task', async () => {
    const repo = teamRepo({ bug: true });
    const agent = agentDir();
    term = spawnInPty(
      process.execPath,
      [CLI, 'team', '--pipeline', 'comprehensive', '--agent-cmd', teamAgentCmd(agent)],
      { columns: 120, rows: 50, cwd: repo },
    );
    // Mid-run, the fix loops inside the executors neither end the screen nor take over its session.
    // The header and the status line name the team session; the log may say which loop session a fix cycle runs in.
    const teamOwned = (screen: string) => {
      const lines = screen.trimEnd().split('\n');
      for (const line of [lines[0]!, lines.at(-1)!]) {
        expect(line).toMatch(/tst-change-\d{8}/);
        expect(line).not.toMatch(/WFS-/);
      }
    };
    let screen = await term.waitFor(/TESTRUN-00[12] executor L[12] .*fix cycle/, 120_000);
    teamOwned(screen);
    screen = await term.waitFor('8/8 tasks completed', 180_000);
    teamOwned(screen);
    for (const layer of ['L1', 'L2', 'L3']) expect(screen).toMatch(new RegExp(`✓ coverage ${layer} \\[[█░]{10}\\]`));
    expect(screen).toMatch(/Discovery board: \d+/);
    term.press('q');
    const exit = await term.exited;
    expect(exit.exitCode).toBe(0);
  }, 300_000);

  it('q while the pipeline is offered leaves at once without creating a session', async () => {
    const repo = teamRepo();
    const agent = agentDir();
    term = spawnInPty(process.execPath, [CLI, 'team', '--agent-cmd', teamAgentCmd(agent)], {
      columns: 60,
      rows: 24,
      cwd: repo,
    });
    await term.waitFor('enter to start', 60_000);
    term.press('q');
    const exit = await term.exited;
    expect(exit.exitCode).toBe(130);
    expect(existsSync(join(repo, '.workflow/.csv-wave'))).toBe(false);
    expect(calls(agent)).toEqual([]);
    expect(git(repo, 'status', '--porcelain')).toBe('');
  }, 120_000);
});
