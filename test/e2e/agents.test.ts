import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  agentCmd,
  CLI,
  execa,
  git,
  makeRepo,
  readJson,
  removeRepos,
  ROOT,
  runCli,
  scenario,
  sessionDir,
  state,
} from '../helpers/repo.js';
import { attempts, editAdd, editMultiply, planMultiply } from './plans.js';

afterAll(removeRepos);

const CALC = 'projects-loop/calc';
const base = ['run', '--headless', '--test-cmd', 'node --test'];

describe('the guard against fixing by cheating, through the whole loop', () => {
  it('rejects and reverts a fixer that deletes, skips or weakens tests, and the run still ends in success', async () => {
    const repo = makeRepo(CALC);
    const original = readFileSync(join(repo, 'test/calc.test.js'), 'utf8');
    const agent = scenario({
      analyze: [...attempts(4), planMultiply],
      fix: [
        { delete: ['test/calc.test.js'] },
        { edits: [{ file: 'test/calc.test.js', search: "describe('add', ", replace: "describe.skip('add', " }] },
        { edits: [{ file: 'test/calc.test.js', search: 'assert.equal(add(2, 3), 5)', replace: 'assert.equal(5, 5)' }] },
        { edits: [editAdd] },
        { edits: [editMultiply] },
      ],
    });
    const run = await runCli(repo, [...base, '--agent-cmd', agentCmd(agent.path)]);
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    const history = readJson(join(sessionDir(repo), '.process/fix-history.json'));
    expect(history.map((h: any) => h.outcome)).toEqual(['rejected', 'rejected', 'rejected', 'improved', 'improved']);
    expect(history[0].reason).toMatch(/delet/i);
    expect(history[1].reason).toMatch(/skip/i);
    expect(history[2].reason).toMatch(/assert/i);
    // Each rejected fix was reverted before the next iteration, and never committed.
    expect(readFileSync(join(repo, 'test/calc.test.js'), 'utf8')).toBe(original);
    expect(
      git(repo, 'log', '--format=%s')
        .split('\n')
        .filter((s) => s.startsWith('test-cycle:')),
    ).toHaveLength(2);
    expect(agent.prompt('agent', 'analyze', 2)).toMatch(/rejected/);
    expect(
      state(repo)
        .iterations.slice(0, 3)
        .map((i: any) => i.result),
    ).toEqual(['rejected', 'rejected', 'rejected']);
  });
});

describe('built-in AI CLIs through the whole loop', () => {
  const fakeBin = join(ROOT, 'test/fixtures/fake-clis');
  const MATH = {
    'package.json': '{"type":"module","scripts":{"test":"node --test"}}',
    'src/math.js':
      'export function add(a, b) {\n  return a - b;\n}\n\nexport function mul(a, b) {\n  return a * b + 1;\n}\n',
  };
  const TESTS =
    "import { it } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { add, mul } from '../src/math.js';\n\nit('adds two numbers', () => assert.equal(add(2, 3), 5));\nit('multiplies two numbers', () => assert.equal(mul(2, 3), 6));\nit('adds zero', () => assert.equal(add(1, 0), 1));\n";

  it('falls back from a rate-limited gemini to claude and keeps gemini cooling down on the next iteration', async () => {
    const repo = makeRepo(null, { ...MATH, 'test/math.test.js': TESTS });
    const log = join(repo, '..', `fake-cli-${Date.now()}.jsonl`);
    const env = {
      PATH: `${fakeBin}${delimiter}${process.env.PATH}`,
      FAKE_GEMINI_MODE: 'rate_limit',
      FAKE_CLAUDE_MODE: 'success',
      FAKE_CLI_LOG: log,
      // claude's fix repairs add() but not mul(): a second iteration follows.
      FAKE_CLI_EDIT: JSON.stringify([
        {
          path: 'src/math.js',
          content:
            'export function add(a, b) {\n  return a + b;\n}\n\nexport function mul(a, b) {\n  return a * b + 1;\n}\n',
        },
      ]),
      FORCE_COLOR: '0',
    };
    const run = await execa(
      process.execPath,
      [CLI, 'run', '--headless', '--agent', 'gemini,claude', '--max-iterations', '2'],
      { cwd: repo, env, reject: false, timeout: 120_000 },
    );
    expect(run.exitCode, run.stdout + run.stderr).toBe(1);
    expect(run.stdout).toMatch(/gemini \(analyze\): rate_limited/);
    const calls = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(calls.map((c: any) => `${c.cli} ${c.role}`)).toEqual([
      'gemini analyze',
      'claude analyze',
      'claude fix',
      'claude analyze',
      'claude fix',
    ]);
    expect(existsSync(join(sessionDir(repo), '.process/agent-cooldowns.json'))).toBe(true);
    expect(state(repo).iterations[0]).toMatchObject({ result: 'improved', pass_rate_before: 33.33, pass_rate: 66.67 });
  });
});

describe('the manual agent', () => {
  it('waits while a person fixes the code, then re-tests and finishes', async () => {
    const repo = makeRepo(CALC, {
      'src/calc.js': readFileSync(join(ROOT, 'test/fixtures', CALC, 'src/calc.js'), 'utf8').replace(
        'return a * b + 1;',
        'return a * b;',
      ),
    });
    const child = execa(process.execPath, [CLI, ...base, '--agent', 'manual'], {
      cwd: repo,
      reject: false,
      env: { FORCE_COLOR: '0' },
    });
    const end = Date.now() + 60_000;
    const waiting = () => {
      try {
        return state(repo).iterations[0]?.step === 'fix';
      } catch {
        return false;
      }
    };
    while (!waiting()) {
      if (Date.now() > end) throw new Error('the manual agent never started waiting');
      await new Promise((r) => setTimeout(r, 200));
    }
    await new Promise((r) => setTimeout(r, 500));
    // What a person does in their editor: fix the line and save.
    const file = join(repo, 'src/calc.js');
    writeFileSync(file, readFileSync(file, 'utf8').replace('return a - b;', 'return a + b;'));
    const run = await child;
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    expect(state(repo)).toMatchObject({ status: 'completed' });
    expect(state(repo).iterations[0]).toMatchObject({ agent: 'manual', result: 'improved', pass_rate: 100 });
    expect(git(repo, 'log', '-1', '--format=%s')).toMatch(/^test-cycle: iteration 1 /);
  });
});

describe('agent command failures', () => {
  it('records an agent that prints garbage for a fix plan in every iteration as degraded, and stops at the third (exit 1)', async () => {
    const repo = makeRepo(CALC);
    const agent = scenario({ analyze: [{ say: 'no idea' }] });
    const run = await runCli(repo, [...base, '--agent-cmd', agentCmd(agent.path)]);
    expect(run.exitCode).toBe(1);
    expect(state(repo).iterations).toHaveLength(3);
    expect(state(repo).iterations[0]).toMatchObject({ degraded: true, result: 'degraded' });
    expect(readFileSync(join(sessionDir(repo), '.summaries/failure-report.md'), 'utf8')).toMatch(/fixcycle doctor/);
  });

  it('stops cleanly when --budget is spent, keeping the session resumable with more budget', async () => {
    const repo = makeRepo(CALC);
    const agent = scenario({ analyze: attempts(2), fix: [{ edits: [editAdd] }, { edits: [editMultiply] }] });
    const run = await runCli(repo, [...base, '--agent-cmd', agentCmd(agent.path), '--budget', '2 calls']);
    expect(run.exitCode, run.stdout + run.stderr).toBe(1);
    expect(agent.calls()).toHaveLength(2);
    expect(state(repo)).toMatchObject({ status: 'failed', current_iteration: 1 });
    expect(state(repo).outcome_reason).toMatch(/budget reached: 2 of 2 agent calls/);
    expect(run.stdout).toMatch(/\[done\] failure — stopped: /);

    const more = await runCli(repo, [
      ...base,
      '--agent-cmd',
      agentCmd(agent.path),
      '--resume-session',
      '--budget',
      '10 calls',
    ]);
    expect(more.exitCode, more.stdout + more.stderr).toBe(0);
    expect(agent.calls()).toHaveLength(4);
    expect(state(repo)).toMatchObject({ status: 'completed', current_iteration: 2 });
  });
});
