import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fromCsv, toCsv } from '../../src/engine/team/tasks-csv.js';
import { git, makeRepo, removeRepos, runCli } from '../helpers/repo.js';
import { agentDir, calls, teamAgentCmd, teamRepo, teamSession } from './team-helpers.js';

afterAll(removeRepos);

describe('fixcycle team on the command line', () => {
  it('--json prints one event a line: the pipeline, each task transition, done', async () => {
    const repo = teamRepo();
    const agent = agentDir();
    const run = await runCli(repo, ['team', '--json', '--pipeline', 'targeted', '--agent-cmd', teamAgentCmd(agent)], {
      timeoutMs: 120_000,
    });
    expect(run.exitCode, run.stderr).toBe(0);
    const events = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(events.find((e) => e.type === 'team-pipeline')).toMatchObject({
      pipeline: 'targeted',
      acceptedBy: '--pipeline',
      files: 2,
      modules: ['src/math', 'src/text'],
    });
    const transitions = events
      .filter((e) => e.type === 'team-task' && e.status !== 'running')
      .map((e) => `${e.id} ${e.status}`);
    expect(transitions).toEqual(['STRATEGY-001 completed', 'TESTGEN-001 completed', 'TESTRUN-001 completed']);
    expect(events.at(-1)).toMatchObject({ type: 'done', outcome: 'success', exitCode: 0 });
  }, 180_000);

  it('headless without -y takes the detected pipeline and says so; -y accepts it silently', async () => {
    const agent = agentDir();
    const plain = await runCli(teamRepo(), ['team', '--headless', '--agent-cmd', teamAgentCmd(agent, 'fail-gen')], {
      timeoutMs: 120_000,
    });
    expect(plain.stderr).toContain(
      'fixcycle team: not interactive and no -y: accepting the detected pipeline (pass --pipeline to choose another)',
    );
    expect(plain.stdout).toMatch(
      /→ standard pipeline \(2 file\(s\) <= 10 and 2 module\(s\) <= 3\): .*; accepted by headless default; alternatives: targeted \(.*\), comprehensive \(.*\) \(--pipeline\)/,
    );
    const accepted = await runCli(
      teamRepo(),
      ['team', '--headless', '-y', '--agent-cmd', teamAgentCmd(agent, 'fail-gen')],
      { timeoutMs: 120_000 },
    );
    expect(accepted.stderr).not.toContain('not interactive');
    expect(accepted.stdout).toMatch(/→ standard pipeline .*; accepted by -y;/);
  }, 180_000);

  it('--continue ID refuses a tasks.csv edited into a cycle, naming it, and loses nothing', async () => {
    const repo = teamRepo();
    const agent = agentDir();
    const first = await runCli(
      repo,
      ['team', '--headless', '--pipeline', 'targeted', '--agent-cmd', teamAgentCmd(agent, 'fail-gen')],
      { timeoutMs: 120_000 },
    );
    expect(first.exitCode).toBe(1);
    const dir = teamSession(repo);
    const tasks = fromCsv(readFileSync(join(dir, 'tasks.csv'), 'utf8'));
    tasks[0]!.deps = 'TESTRUN-001';
    const edited = toCsv(tasks);
    writeFileSync(join(dir, 'tasks.csv'), edited);
    const again = await runCli(
      repo,
      ['team', '--headless', '--continue', basename(dir), '--agent-cmd', teamAgentCmd(agent)],
      { timeoutMs: 60_000 },
    );
    expect(again.exitCode).toBe(2);
    expect(again.stderr.trim()).toMatch(
      /^fixcycle: the task dependencies form a cycle: .*STRATEGY-001.*; remove one of these deps$/,
    );
    expect(readFileSync(join(dir, 'tasks.csv'), 'utf8')).toBe(edited);
  }, 180_000);

  it('--continue of an unknown session, and a repository without a change: one-line errors, exit 2', async () => {
    const repo = teamRepo();
    const agent = agentDir();
    const unknown = await runCli(repo, [
      'team',
      '--headless',
      '--continue',
      'tst-nope-20260101',
      '--agent-cmd',
      teamAgentCmd(agent),
    ]);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr.trim()).toBe(
      'fixcycle: no team session tst-nope-20260101 in .workflow/.csv-wave: run `fixcycle team --continue` without an id to take the latest',
    );
    const empty = makeRepo('projects-team/base', { 'README.md': '# docs only\n' });
    writeFileSync(join(empty, 'README.md'), '# changed docs\n');
    git(empty, 'commit', '-qam', 'docs');
    const none = await runCli(empty, ['team', '--headless', '--agent-cmd', teamAgentCmd(agent)]);
    expect(none.exitCode).toBe(2);
    expect(none.stderr.trim()).toMatch(
      /^fixcycle: no changed code found \(the last commit \(\w+\) and the staged changes touch no source or test file\): commit or stage the change to test first$/,
    );
    expect(calls(agent)).toEqual([]);
  }, 120_000);
});
