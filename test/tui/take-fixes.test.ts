// The key that takes fixes left waiting on the session's branch, in the built CLI's TUI at a 60-column pane's width:
// a run with --no-apply ends with the fixes on fixcycle/<session>, the banner says so with the command, and h brings
// them to the user's branch. Needs `npm run build`.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { agentCmd, CLI, execa, git, makeRepo, removeRepos, scenario } from '../helpers/repo.js';
import { editAdd, editMultiply, planAdd, planMultiply } from '../e2e/plans.js';
import { spawnInPty, type PtyTerminal } from './pty-terminal.js';
import { readdirSync } from 'node:fs';
import { activeDir } from '../../src/engine/session/paths.js';

let term: PtyTerminal | undefined;
afterEach(() => term?.kill());
afterAll(removeRepos);

describe('fixes waiting on the session branch', () => {
  it('are shown with the command that takes them, and h takes them, at 60 columns', async () => {
    const repo = makeRepo('projects-loop/calc');
    const agent = scenario({
      analyze: [planAdd, planMultiply],
      fix: [{ edits: [editAdd] }, { edits: [editMultiply] }],
    });
    term = spawnInPty(
      process.execPath,
      [CLI, 'run', '--no-apply', '--test-cmd', 'node --test', '--agent-cmd', agentCmd(agent.path)],
      { columns: 60, rows: 30, cwd: repo },
    );
    let screen = await term.waitFor('h takes them', 90_000);
    expect(screen).toMatch(/⏸ 2 commits wait on fixcycle\/WFS-test-/);
    // The banner's rows are counted in the layout: its headline is not pushed off the screen.
    expect(screen).toContain('✓ Success · pass rate 100% · exit code 0');
    expect(screen, screen).toMatch(/h takes them, or: git cherry-pick/);
    // Nothing came back yet.
    expect(git(repo, 'log', '--format=%s', 'main')).toBe('initial');

    term.press('h');
    screen = await term.waitFor('2 commits handed back to your branch');
    expect(screen).not.toContain('h takes them');
    expect(git(repo, 'log', '--format=%s', 'main').split('\n')).toHaveLength(3);
    expect(git(repo, 'status', '--porcelain')).toBe('');
    expect(git(repo, 'branch', '--list', 'fixcycle/*').trim()).toBe('');
    term.press('q');
    expect((await term.exited).exitCode).toBe(0);
  }, 120_000);

  it('a pane watching a headless run that left them waiting takes them with h, in its own process', async () => {
    const repo = makeRepo('projects-loop/calc');
    const agent = scenario({
      analyze: [planAdd, planMultiply],
      fix: [{ edits: [editAdd] }, { edits: [editMultiply] }],
    });
    const run = await execa(
      process.execPath,
      [CLI, 'run', '--headless', '--no-apply', '--test-cmd', 'node --test', '--agent-cmd', agentCmd(agent.path)],
      { cwd: repo, reject: false },
    );
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    expect(git(repo, 'log', '--format=%s', 'main')).toBe('initial');
    const id = readdirSync(activeDir(repo)).find((n) => n.startsWith('WFS-test-'))!;
    term = spawnInPty(process.execPath, [CLI, 'watch', '-C', repo, '--session', id], {
      columns: 60,
      rows: 30,
      cwd: repo,
    });
    const screen = await term.waitFor('h takes them', 30_000);
    expect(screen).toMatch(/⏸ 2 commits wait on fixcycle\/WFS-test-/);
    term.press('h');
    await term.waitFor('2 commits handed back to your branch');
    expect(git(repo, 'log', '--format=%s', 'main').split('\n')).toHaveLength(3);
    expect(git(repo, 'status', '--porcelain')).toBe('');
  }, 120_000);
});
