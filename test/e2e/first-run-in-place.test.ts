import { appendFileSync, chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findOnPath } from '../../src/engine/runners/project.js';
import { agentCmd, CLI, execa, git, makeRepo, removeRepos, runCli, scenario, state } from '../helpers/repo.js';
import { editAdd, editMultiply, planAdd, planMultiply } from './plans.js';

afterAll(removeRepos);

const CALC = 'projects-loop/calc';
const base = ['run', '--headless', '--test-cmd', 'node --test'];
const FIXED = (text: string) =>
  text.replace('return a - b;', 'return a + b;').replace('return a * b + 1;', 'return a * b;');

// A test that says when the run is under way, then takes a while: the moment a user saves during the first run.
const SLOW_TEST = [
  "import { it } from 'node:test';",
  "import { writeFileSync } from 'node:fs';",
  "it('takes a while', async () => {",
  "  writeFileSync('.run-started', '');",
  '  await new Promise((r) => setTimeout(r, 2500));',
  '});',
  '',
].join('\n');

describe("a new session's first run is the user's test command in their own tree", () => {
  it('ends a green project with no worktree made, the user tree and index as they were', async () => {
    const repo = makeRepo(CALC);
    // The user's work in progress fixes both bugs: the suite passes on it.
    const calc = join(repo, 'src/calc.js');
    writeFileSync(calc, FIXED(readFileSync(calc, 'utf8')));
    writeFileSync(join(repo, 'src/helper.js'), 'export const helper = 1;\n');
    git(repo, 'add', 'src/helper.js');
    const before = git(repo, 'status', '--porcelain');
    const agent = scenario({});
    const run = await runCli(repo, [...base, '--agent-cmd', agentCmd(agent.path)]);
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/the first run is your test command in your tree/);
    expect(run.stdout).not.toMatch(/the loop works in its own worktree/);
    expect(agent.calls()).toEqual([]);
    const s = state(repo);
    expect(s.initial_pass_rate).toBe(100);
    // No worktree was ever made for this repository, and the session's branch is gone.
    expect(existsSync(dirname(s.worktree.dir))).toBe(false);
    expect(git(repo, 'worktree', 'list', '--porcelain').match(/^worktree /gm)).toHaveLength(1);
    expect(git(repo, 'branch', '--list', 'fixcycle/*')).toBe('');
    expect(git(repo, 'status', '--porcelain')).toBe(before);
    expect(git(repo, 'log', '--format=%s')).toBe('initial');
  });

  it('asks git only what a green run on a clean tree needs: no snapshot to write, no fix to look for', async () => {
    const repo = makeRepo(CALC);
    const calc = join(repo, 'src/calc.js');
    writeFileSync(calc, FIXED(readFileSync(calc, 'utf8')));
    git(repo, 'commit', '-qam', 'fixed');
    // Every git call fixcycle makes, logged on the way to the real git.
    const bin = mkdtempSync(join(tmpdir(), 'fixcycle-git-log-'));
    const log = join(bin, 'calls');
    writeFileSync(join(bin, 'git'), `#!/bin/sh\nprintf '%s\\n' "$*" >> ${log}\nexec ${findOnPath('git')} "$@"\n`);
    chmodSync(join(bin, 'git'), 0o755);
    const agent = scenario({});
    const run = await execa(process.execPath, [CLI, ...base, '--agent-cmd', agentCmd(agent.path)], {
      cwd: repo,
      reject: false,
      env: { FORCE_COLOR: '0', PATH: `${bin}:${process.env.PATH}` },
    });
    const calls = readFileSync(log, 'utf8');
    rmSync(bin, { recursive: true, force: true });
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    expect(agent.calls()).toEqual([]);
    // git status said the tree is clean: the snapshot is HEAD, with no index of its own to fill or tree to write.
    expect(calls).not.toMatch(/^(add|write-tree|commit-tree)\b/m);
    // No worktree was made: no fix to compare with the snapshot, no worktree of git's to prune.
    expect(calls).not.toMatch(/^diff --quiet [0-9a-f]{40} refs\/heads\//m);
    expect(calls).not.toMatch(/^worktree\b/m);
    expect(git(repo, 'branch', '--list', 'fixcycle/*')).toBe('');
    expect(git(repo, 'status', '--porcelain')).toBe('');
  });

  it('stops a run where no test ran (a missing program) in one line, with no worktree made', async () => {
    const repo = makeRepo(CALC);
    const agent = scenario({});
    const run = await runCli(repo, [
      'run',
      '--headless',
      '--test-cmd',
      'no-such-runner-here',
      '--agent-cmd',
      agentCmd(agent.path),
    ]);
    expect(run.exitCode, run.stdout + run.stderr).toBe(1);
    expect(run.stdout).toMatch(/needs a program that is not installed \(no-such-runner-here/);
    expect(agent.calls()).toEqual([]);
    expect(existsSync(dirname(state(repo).worktree.dir))).toBe(false);
    expect(git(repo, 'status', '--porcelain')).toBe('');
  });

  it('moves a failing run into the worktree with the paths the worktree has, and the fixes come back', async () => {
    const repo = makeRepo(CALC);
    const agent = scenario({
      analyze: [planAdd, planMultiply],
      fix: [{ edits: [editAdd] }, { edits: [editMultiply] }],
    });
    const run = await runCli(repo, [...base, '--json', '--agent-cmd', agentCmd(agent.path)]);
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    const events = run.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    const said = events.filter((e) => e.type === 'log').map((e) => e.message);
    expect(said.some((m) => /the loop works in its own worktree/.test(m))).toBe(true);
    expect(said.some((m) => /runs again in the worktree/.test(m))).toBe(false);
    const s = state(repo);
    expect(s.initial_pass_rate).toBe(75);
    // The first run's failures name the files where the loop works (their stacks), never the user's tree.
    const first = JSON.stringify(events.find((e) => e.type === 'results' && e.iteration === 0));
    expect(first).toContain(`${s.worktree.dir}/test/calc.test.js`);
    // (The worktree's path ends with the user's, which it keeps below the session's folder: no path outside it.)
    const outside = (text: string) => text.split(s.worktree.dir).join('');
    expect(outside(first)).not.toContain(`${repo}/`);
    expect(outside(agent.prompt('agent', 'analyze', 1))).not.toContain(`${repo}/`);
    expect(git(repo, 'log', '--format=%s', 'main').split('\n')).toHaveLength(3);
    expect(readFileSync(join(repo, 'src/calc.js'), 'utf8').trim()).toBe(
      FIXED(git(repo, 'show', 'main~2:src/calc.js')).trim(),
    );
    expect(git(repo, 'status', '--porcelain')).toBe('');
  });

  it('runs again in the worktree when the user saved during the first run, keeping their save', async () => {
    const repo = makeRepo(CALC, {
      'notes.txt': 'my notes\n',
      'test/slow.test.js': SLOW_TEST,
      '.gitignore': '.run-started\n',
    });
    const agent = scenario({
      analyze: [planAdd, planMultiply],
      fix: [{ edits: [editAdd] }, { edits: [editMultiply] }],
    });
    const child = runCli(repo, [...base, '--agent-cmd', agentCmd(agent.path)]);
    const marker = join(repo, '.run-started');
    const deadline = Date.now() + 60_000;
    while (!existsSync(marker) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    appendFileSync(join(repo, 'notes.txt'), 'saved during the first run\n');
    const run = await child;
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      /your files changed while the first run ran in your tree: it runs again in the worktree/,
    );
    expect(readFileSync(join(repo, 'notes.txt'), 'utf8')).toBe('my notes\nsaved during the first run\n');
    expect(git(repo, 'status', '--porcelain')).toBe(' M notes.txt');
    expect(git(repo, 'show', 'main:notes.txt')).toBe('my notes');
    expect(git(repo, 'log', '--format=%s', 'main').split('\n')).toHaveLength(3);
    expect(readFileSync(join(repo, 'src/calc.js'), 'utf8')).toContain('return a * b;');
  });
});
