import { cpSync, readFileSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  agentCmd,
  git,
  makeRepo,
  readJson,
  removeRepos,
  runCli,
  scenario,
  sessionDir,
  state,
} from '../helpers/repo.js';
import { activeDir, newSessionId } from '../../src/engine/session/paths.js';
import { attempts, editAdd, editMultiply, editsBreakFormat, planAdd, planMultiply } from './plans.js';

afterAll(removeRepos);

const CALC = 'projects-loop/calc';
const base = ['run', '--headless', '--test-cmd', 'node --test'];

describe('the loop, end to end on a real repository', () => {
  it('converges in two iterations, committing each fix with only the files it changed', async () => {
    const repo = makeRepo(CALC, { 'notes.txt': 'untouched\n' });
    const agent = scenario({
      analyze: [planAdd, planMultiply],
      fix: [{ edits: [editAdd] }, { edits: [editMultiply] }],
    });
    const run = await runCli(repo, [...base, '--agent-cmd', agentCmd(agent.path)]);
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/\[done\] success/);

    const s = state(repo);
    expect(s.status).toBe('completed');
    expect(s.initial_pass_rate).toBe(75);
    expect(s.iterations.map((i: any) => [i.iteration, i.strategy, i.pass_rate_before, i.pass_rate, i.result])).toEqual([
      [1, 'conservative', 75, 85, 'improved'],
      [2, 'conservative', 85, 100, 'improved'],
    ]);
    const log = git(repo, 'log', '--format=%s').split('\n');
    expect(log.slice(0, 2)).toEqual([
      'test-cycle: iteration 2 - conservative strategy (pass: 85% → 100%)',
      'test-cycle: iteration 1 - conservative strategy (pass: 75% → 85%)',
    ]);
    expect(git(repo, 'show', '--name-only', '--format=', 'HEAD').trim()).toBe('src/calc.js');
    expect(git(repo, 'status', '--porcelain')).toBe('');

    const dir = sessionDir(repo);
    const task = readJson(join(dir, '.task/IMPL-fix-1.json'));
    expect(task).toMatchObject({
      id: 'IMPL-fix-1',
      status: 'completed',
      meta: { type: 'test-fix-iteration', iteration: 1, max_iterations: 10 },
    });
    expect(task.context.fix_strategy.modification_points).toEqual(['src/calc.js:add:1-3']);
    expect(readFileSync(join(dir, '.process/iteration-1-analysis.md'), 'utf8')).toMatch(/add\(\) subtracts/);
    expect(readFileSync(join(dir, '.process/iteration-1-cli-output.txt'), 'utf8')).toMatch(/Here is my analysis/);
    expect(readJson(join(dir, '.process/fix-history.json')).map((h: any) => h.outcome)).toEqual([
      'improved',
      'improved',
    ]);
    expect(readJson(join(dir, '.process/test-results.json'))).toMatchObject({
      total: 20,
      passed: 20,
      failed: 0,
      pass_rate: 100,
      scope: 'full',
    });
    expect(readFileSync(join(dir, '.process/test-output.log'), 'utf8')).toMatch(/final validation|pass 20/);
    expect(existsSync(join(dir, '.summaries/session-summary.md'))).toBe(true);
    // The session folder is excluded from git, never committed.
    expect(git(repo, 'ls-files')).not.toMatch(/\.workflow/);
  });

  it('reverts exactly the regressing fix and switches to surgical, telling the next analysis why', async () => {
    const repo = makeRepo(CALC);
    const agent = scenario({
      analyze: [planAdd, planAdd, planMultiply],
      fix: [{ edits: editsBreakFormat }, { edits: [editAdd] }, { edits: [editMultiply] }],
    });
    const run = await runCli(repo, [...base, '--agent-cmd', agentCmd(agent.path)]);
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);

    const s = state(repo);
    expect(s.iterations[0]).toMatchObject({
      iteration: 1,
      pass_rate_before: 75,
      pass_rate: 40,
      result: 'regressed_rolled_back',
    });
    expect(s.iterations[1]).toMatchObject({ iteration: 2, strategy: 'surgical', result: 'improved' });
    expect(s.iterations[1].strategy_reason).toMatch(/regressed/);
    const log = git(repo, 'log', '--format=%H %s')
      .split('\n')
      .map((l) => l.split(' '));
    const subjects = log.map((l) => l.slice(1).join(' '));
    expect(subjects).toContain(
      'test-cycle: rollback iteration 1 - regression detected (broke 9 passing test(s); pass: 75% → 40%)',
    );
    const rollback = log.find((l) => l.slice(1).join(' ').startsWith('test-cycle: rollback iteration 1'))![0]!;
    const fix1 = log.find((l) => l.slice(1).join(' ').startsWith('test-cycle: iteration 1 -'))![0]!;
    // The rollback undoes that commit exactly: its diff is the fix's diff reversed.
    expect(git(repo, 'diff', fix1 + '^', rollback)).toBe('');
    expect(agent.prompt('agent', 'analyze', 2)).toMatch(/rolled back/);
    expect(readJson(join(sessionDir(repo), '.process/fix-history.json'))[0]).toMatchObject({
      outcome: 'regressed_rolled_back',
      pass_rate_before: 75,
      pass_rate_after: 40,
    });
  });

  it('marks tests stuck after three failing iterations, changes strategy, and ends with a failure report (exit 1)', async () => {
    const repo = makeRepo(CALC);
    const useless = { edits: [{ file: 'src/calc.js', search: 'return a - b;', replace: 'return a - b; // tried' }] };
    // A different diagnosis each time (the same root cause three times in a row gets a re-ask: see soft-plans.test.ts).
    const agent = scenario({ analyze: attempts(4), fix: [useless] });
    const run = await runCli(repo, [...base, '--agent-cmd', agentCmd(agent.path), '--max-iterations', '4']);
    expect(run.exitCode, run.stdout + run.stderr).toBe(1);
    const s = state(repo);
    expect(s.status).toBe('failed');
    expect(s.stuck_tests).toHaveLength(5);
    expect(s.iterations.map((i: any) => i.strategy)).toEqual([
      'conservative',
      'conservative',
      'conservative',
      'aggressive',
    ]);
    expect(s.iterations[3].strategy_reason).toMatch(/stuck/);
    const report = readFileSync(join(sessionDir(repo), '.summaries/failure-report.md'), 'utf8');
    expect(report).toMatch(/Final pass rate: \*\*75%\*\*/);
    expect(report).toMatch(/## Stuck tests\n- /);
    expect(report).toMatch(/What to do next/);
    expect(run.stdout).toMatch(/\[stuck\] 5 test/);
  });

  it('falls back to the next agent when the first answers garbage', async () => {
    const repo = makeRepo(CALC);
    const first = scenario({
      analyze: [{ say: 'I had a look and everything seems fine to me.' }],
      fix: [{ edits: [editAdd] }, { edits: [editMultiply] }],
    });
    const second = scenario({ analyze: [planAdd, planMultiply] });
    const run = await runCli(repo, [
      ...base,
      '--agent-cmd',
      agentCmd(first.path, 'first'),
      '--agent-cmd',
      agentCmd(second.path, 'second'),
    ]);
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    expect(first.calls()).toEqual([
      'first analyze 1 conservative',
      'first fix 1 conservative',
      'first analyze 2 conservative',
      'first fix 2 conservative',
    ]);
    expect(second.calls()).toEqual(['second analyze 1 conservative', 'second analyze 2 conservative']);
    expect(readFileSync(join(sessionDir(repo), '.process/iteration-1-analysis.md'), 'utf8')).toMatch(
      /scripted-agent-1: invalid_plan/,
    );
    expect(run.stdout).toMatch(/scripted-agent-1 \(analyze\): invalid_plan/);
  });

  // In place only: by default the loop starts from a snapshot of the uncommitted changes in its own worktree
  // (test/e2e/isolation.test.ts).
  it('in place, refuses a dirty working tree without touching it, and checkpoints it with --allow-dirty', async () => {
    const repo = makeRepo(CALC);
    writeFileSync(
      join(repo, 'src/format.js'),
      readFileSync(join(repo, 'src/format.js'), 'utf8') + '\n// my work in progress\n',
    );
    const agent = scenario({
      analyze: [planAdd, planMultiply],
      fix: [{ edits: [editAdd] }, { edits: [editMultiply] }],
    });
    const refused = await runCli(repo, [...base, '--in-place', '--agent-cmd', agentCmd(agent.path)]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(refused.stderr).toMatch(/uncommitted changes \(src\/format\.js\).*--allow-dirty/);
    expect(readFileSync(join(repo, 'src/format.js'), 'utf8')).toMatch(/my work in progress/);
    expect(agent.calls()).toEqual([]);
    // Nor is an empty session left behind to be numbered past or listed.
    expect(existsSync(activeDir(repo)) ? readdirSync(activeDir(repo)) : []).toEqual([]);

    const allowed = await runCli(repo, [...base, '--in-place', '--agent-cmd', agentCmd(agent.path), '--allow-dirty']);
    expect(allowed.exitCode, allowed.stdout + allowed.stderr).toBe(0);
    const subjects = git(repo, 'log', '--format=%s').split('\n');
    expect(subjects.at(-2)).toMatch(/^fixcycle: checkpoint before test-fix session/);
    expect(readFileSync(join(repo, 'src/format.js'), 'utf8')).toMatch(/my work in progress/);
  });

  it('says clearly when the folder is not a git repository', async () => {
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'fixcycle-nogit-'));
    const run = await runCli(dir, [...base, '--agent-cmd', 'true']);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(/not a git repository: run `git init`/);
  });

  it('streams NDJSON events with --json, ending with the outcome', async () => {
    const repo = makeRepo(CALC);
    const agent = scenario({
      analyze: [planAdd, planMultiply],
      fix: [{ edits: [editAdd] }, { edits: [editMultiply] }],
    });
    const run = await runCli(repo, ['run', '--json', '--test-cmd', 'node --test', '--agent-cmd', agentCmd(agent.path)]);
    expect(run.exitCode).toBe(0);
    const events = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(events[0].type).toBe('session');
    expect(events.filter((e) => e.type === 'commit')).toHaveLength(2);
    expect(events.some((e) => e.type === 'output' && e.lines.some((l: string) => /add/.test(l)))).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: 'done', outcome: 'success', exitCode: 0, passRate: 100 });
  });

  it('kills a hung agent at --agent-timeout, records it, and falls back', async () => {
    const repo = makeRepo(CALC);
    const hung = scenario({ analyze: [{ sleepMs: 120_000 }], fix: [{ edits: [editAdd] }, { edits: [editMultiply] }] });
    const good = scenario({ analyze: [planAdd, planMultiply], fix: [{ edits: [editAdd] }, { edits: [editMultiply] }] });
    const started = Date.now();
    const run = await runCli(repo, [
      ...base,
      '--agent-cmd',
      agentCmd(hung.path, 'hung'),
      '--agent-cmd',
      agentCmd(good.path, 'good'),
      '--agent-timeout',
      '2s',
    ]);
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(run.stdout).toMatch(/scripted-agent-1 \(analyze\): timeout/);
    const calls = readFileSync(join(sessionDir(repo), '.process/agent-calls.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(calls[0]).toMatchObject({
      agent: 'scripted-agent-1',
      role: 'analyze',
      classification: 'timeout',
      iteration: 1,
    });
    const hungPid = Number(readFileSync(join(hung.dir, 'pid-hung-analyze'), 'utf8'));
    expect(() => process.kill(hungPid, 0)).toThrow();
  });

  it('two runs started within one second get a session each; a name the user gave that is taken stays an error', async () => {
    const repo = makeRepo(null, {
      'package.json': '{"scripts":{"test":"node --test"}}\n',
      'test/ok.test.js': "require('node:test')('ok', () => {});\n",
    });
    const agent = scenario({ analyze: [], fix: [] });
    const first = await runCli(repo, ['run', '--headless', '--agent-cmd', agentCmd(agent.path)]);
    expect(first.exitCode, first.stdout + first.stderr).toBe(0);
    // The sessions a run started in any of the next 90 seconds (the test times out sooner) would be named after: already there, as when
    // an editor task starts fixcycle again the second a green run ended.
    // Each is a copy of the first run's session, so it is a session as fixcycle sees one, not just a folder name.
    const now = Date.now();
    const taken = Array.from({ length: 90 }, (_, i) => newSessionId(undefined, new Date(now + i * 1000)));
    const firstDir = sessionDir(repo);
    for (const id of taken)
      if (join(activeDir(repo), id) !== firstDir) cpSync(firstDir, join(activeDir(repo), id), { recursive: true });
    const second = await runCli(repo, ['run', '--headless', '--agent-cmd', agentCmd(agent.path)]);
    expect(second.exitCode, second.stdout + second.stderr).toBe(0);
    const numbered = readdirSync(activeDir(repo)).filter((n) => /-2$/.test(n));
    expect(numbered).toHaveLength(1);
    expect(taken).toContain(numbered[0]!.replace(/-2$/, ''));
    expect(agent.calls()).toEqual([]);

    const named = await runCli(repo, [
      'run',
      '--headless',
      '--session-name',
      taken[0]!.replace(/^WFS-test-/, ''),
      '--agent-cmd',
      agentCmd(agent.path),
    ]);
    expect(named.exitCode).toBe(2);
    expect(named.stderr.trim()).toBe(
      `fixcycle: session ${taken[0]} already exists: resume it with --resume-session ${taken[0]}, or pick another --session-name`,
    );
  });

  it('a session folder made but not yet written (a run that started the same moment) is taken too: the run takes the next number', async () => {
    const repo = makeRepo(null, {
      'package.json': '{"scripts":{"test":"node --test"}}\n',
      'test/ok.test.js': "require('node:test')('ok', () => {});\n",
    });
    const agent = scenario({ analyze: [], fix: [] });
    // A first run, under a name of its own, sets the session folder up as a user's repository has it.
    expect(
      (await runCli(repo, ['run', '--headless', '--session-name', 'setup', '--agent-cmd', agentCmd(agent.path)]))
        .exitCode,
    ).toBe(0);
    const now = Date.now();
    const claimed = Array.from({ length: 90 }, (_, i) => newSessionId(undefined, new Date(now + i * 1000)));
    for (const id of claimed) mkdirSync(join(activeDir(repo), id), { recursive: true });
    const run = await runCli(repo, ['run', '--headless', '--agent-cmd', agentCmd(agent.path)]);
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    const numbered = readdirSync(activeDir(repo)).filter((n) => /-2$/.test(n));
    expect(numbered).toHaveLength(1);
    expect(claimed).toContain(numbered[0]!.replace(/-2$/, ''));
  });

  it('prints the latest session with `fixcycle status`, and as JSON', async () => {
    const repo = makeRepo(CALC);
    const agent = scenario({
      analyze: [planAdd, planMultiply],
      fix: [{ edits: [editAdd] }, { edits: [editMultiply] }],
    });
    await runCli(repo, [...base, '--agent-cmd', agentCmd(agent.path), '--session-name', 'calc']);
    const text = await runCli(repo, ['status']);
    expect(text.exitCode).toBe(0);
    expect(text.stdout).toMatch(/session +WFS-test-calc/);
    expect(text.stdout).toMatch(/pass rate +100% \(20\/20/);
    expect(text.stdout).toMatch(/#1 conservative +75% → 85% +improved/);
    const json = JSON.parse((await runCli(repo, ['status', '--json'])).stdout);
    expect(json).toMatchObject({
      session_id: 'WFS-test-calc',
      status: 'completed',
      pass_rate: 100,
      current_iteration: 2,
    });
  });
});
