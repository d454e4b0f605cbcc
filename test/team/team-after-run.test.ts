// `fixcycle team` in a repository where a `fixcycle run` went first: run made `.workflow` a link into the git
// directory, so team's session, and its executors' worktrees under it, are reached through that link. Their
// coverage must still be measured (it read 0% when the worktrees sat behind the link).
import { lstatSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fromCsv } from '../../src/engine/team/tasks-csv.js';
import { removeRepos, runCli } from '../helpers/repo.js';
import { agentDir, teamAgentCmd, teamRepo, teamSession } from './team-helpers.js';

afterAll(removeRepos);

describe('fixcycle team after fixcycle run', () => {
  it("finds the session-folder link run made and measures its executors' coverage in their worktrees", async () => {
    const repo = teamRepo({ bug: true });
    const agent = agentDir();
    const run = await runCli(repo, ['run', '--headless', '--agent-cmd', teamAgentCmd(agent)], { timeoutMs: 120_000 });
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    expect(lstatSync(join(repo, '.workflow')).isSymbolicLink()).toBe(true);

    const team = await runCli(
      repo,
      ['team', '--headless', '--pipeline', 'comprehensive', '--agent-cmd', teamAgentCmd(agent)],
      { timeoutMs: 180_000 },
    );
    expect(team.exitCode, team.stdout + team.stderr).toBe(0);
    expect(lstatSync(join(repo, '.workflow')).isSymbolicLink()).toBe(true);
    const dir = teamSession(repo);
    const tasks = Object.fromEntries(fromCsv(readFileSync(join(dir, 'tasks.csv'), 'utf8')).map((t) => [t.id, t]));
    for (const id of ['TESTRUN-001', 'TESTRUN-002', 'TESTRUN-003'])
      expect(Number(tasks[id]!.coverage_achieved), `${id}: ${JSON.stringify(tasks[id])}`).toBeGreaterThan(0);
  }, 300_000);
});
