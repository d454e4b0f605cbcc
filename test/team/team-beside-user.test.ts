import { userSavingAgent } from '../helpers/gen-run.js';
// `fixcycle team` beside a person who keeps coding: the session's main tree is a worktree of its own, the user's
// saves while it runs are never committed, discarded or overwritten, and its commits come back at the end.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { git, readJson, removeRepos, runCli } from '../helpers/repo.js';
import { agentDir, TEAM_AGENT, teamRepo, teamSession } from './team-helpers.js';

afterAll(removeRepos);

// Saved by the agent command on the first call (the strategist's, read-only) in the user's tree: in place the
// strategist's "edits" would be undone and the fix loop would commit the line.
const USER_LINE = '// work in progress: a mode() is coming here';

describe('fixcycle team in its own worktree', () => {
  it("keeps every line the user saves while it runs out of its commits, and brings its tests and fixes back merged into the user's changes", async () => {
    const repo = teamRepo({ bug: true });
    const start = git(repo, 'rev-parse', 'HEAD').trim();
    const agent = agentDir();
    const run = await runCli(
      repo,
      [
        'team',
        '--headless',
        '-y',
        '--agent-cmd',
        userSavingAgent(TEAM_AGENT, repo, agent, { 'src/math/stats.js': `${USER_LINE}\n`, 'notes.txt': 'todo\n' }, [
          'standard',
          '0',
        ]),
      ],
      {
        timeoutMs: 240_000,
      },
    );
    const out = run.stdout + run.stderr;
    expect(run.exitCode, out).toBe(0);
    expect(existsSync(join(agent, 'saved'))).toBe(true);
    expect(out).toMatch(/team works in its own worktree on fixcycle\/tst-/);
    expect(out).not.toMatch(/its edits were undone/);

    // The tests and the fix of median() are on the user's branch.
    const subjects = git(repo, 'log', '--format=%s', `${start}..HEAD`);
    expect(subjects).toMatch(/test-team: TESTGEN-001/);
    expect(subjects).toMatch(/test-cycle: iteration 1 /);
    expect(out).toMatch(
      /handed back to feature by fast-forward .*merged into your uncommitted changes in src\/math\/stats\.js/,
    );

    // The user's saves: in their working copy, uncommitted, in no commit; the fix merged around them.
    const text = readFileSync(join(repo, 'src/math/stats.js'), 'utf8');
    expect(text).toMatch(/\(sorted\[mid - 1\] \+ sorted\[mid\]\) \/ 2/);
    expect(text).toBe(`${git(repo, 'show', 'HEAD:src/math/stats.js')}\n${USER_LINE}\n`);
    expect(git(repo, 'log', '-p', `${start}..HEAD`)).not.toContain('work in progress');
    expect(readFileSync(join(repo, 'notes.txt'), 'utf8')).toBe('todo\n');
    expect(git(repo, 'status', '--porcelain').split('\n').sort()).toEqual([' M src/math/stats.js', '?? notes.txt']);

    // The session ended: worktree and branch gone, the hand-back recorded.
    const scope = readJson(join(teamSession(repo), 'interactive/PHASE0-result.json'));
    expect(scope).toMatchObject({ in_place: false, worktree: { handback: { status: 'applied' } } });
    expect(existsSync(scope.worktree.dir)).toBe(false);
    expect(git(repo, 'branch', '--list', 'fixcycle/*').trim()).toBe('');
  }, 300_000);
});
