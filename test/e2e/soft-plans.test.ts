import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  agentCmd,
  CLI,
  execa,
  makeRepo,
  readJson,
  removeRepos,
  runCli,
  scenario,
  sessionDir,
  state,
} from '../helpers/repo.js';
import { editAdd, editMultiply, plan, planAdd, planMultiply } from './plans.js';

afterAll(removeRepos);

const CALC = 'projects-loop/calc';
const base = ['run', '--headless', '--test-cmd', 'node --test'];

/** What a real model often answers: a short cause, the file alone, a one-line approach (about 30 words in all). */
const terseAdd = {
  plan: plan('add() subtracts b from a, so every sum comes out wrong.', 'src/calc.js', 'return a + b in add'),
};
const terseMultiply = { plan: plan('multiply() adds one to every product.', 'src/calc.js', 'drop the + 1') };

describe('a single agent that answers tersely', () => {
  it('converges: a brief analysis with a file-only modification point is used, its warnings recorded and shown', async () => {
    const repo = makeRepo(CALC);
    const agent = scenario({
      analyze: [terseAdd, terseMultiply],
      fix: [{ edits: [editAdd] }, { edits: [editMultiply] }],
    });
    const run = await runCli(repo, [...base, '--agent-cmd', agentCmd(agent.path)]);
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    expect(state(repo).iterations.map((i: any) => i.result)).toEqual(['improved', 'improved']);
    expect(agent.calls()).toEqual([
      'agent analyze 1 conservative',
      'agent fix 1 conservative',
      'agent analyze 2 conservative',
      'agent fix 2 conservative',
    ]);

    const dir = sessionDir(repo);
    const analysis = readFileSync(join(dir, '.process/iteration-1-analysis.md'), 'utf8');
    expect(analysis).toMatch(
      /## Warnings \(plan used as the best available\)\n- brief analysis: \d+ words < 100\n- modification points name no function or lines: src\/calc\.js\n/,
    );
    const history = readJson(join(dir, '.process/fix-history.json'));
    expect(history[0]).toMatchObject({
      outcome: 'improved',
      modification_points: ['src/calc.js'],
      plan_warnings: [expect.stringMatching(/^brief analysis/), expect.stringMatching(/no function or lines/)],
    });
    expect(run.stdout).toMatch(
      /\[warn\] iteration 1: using scripted-agent's plan with warnings: brief analysis: \d+ words < 100; modification points name no function or lines: src\/calc\.js/,
    );
  });
});

describe('a single agent that names the same root cause again and again', () => {
  it('is asked once more at the third time, told what was tried, and its plan is used: the session goes on', async () => {
    const repo = makeRepo(CALC);
    const useless = { edits: [{ file: 'src/calc.js', search: 'return a - b;', replace: 'return a - b; // tried' }] };
    const agent = scenario({ analyze: [planAdd], fix: [useless] });
    const run = await runCli(repo, [...base, '--agent-cmd', agentCmd(agent.path), '--max-iterations', '3']);
    expect(run.exitCode, run.stdout + run.stderr).toBe(1);
    // Iterations 1 and 2: one analysis each. Iteration 3: the repeat is noticed and the agent asked again.
    expect(agent.calls().filter((c) => c.startsWith('agent analyze'))).toEqual([
      'agent analyze 1 conservative',
      'agent analyze 2 conservative',
      'agent analyze 3 conservative',
      'agent analyze 3 conservative',
    ]);
    const reasked = agent.prompt('agent', 'analyze', 3);
    expect(reasked).toContain('## Asked again: this root cause was already tried');
    expect(reasked).toContain('"add() subtracts instead of adding"');
    expect(reasked).toMatch(/- iteration 1: no change \(pass rate 75% -> 75%\)/);
    expect(reasked).toMatch(/- iteration 2: no change/);
    expect(agent.prompt('agent', 'analyze', 2)).not.toContain('Asked again');
    const s = state(repo);
    expect(s.iterations.map((i: any) => i.result)).toEqual(['no_change', 'no_change', 'no_change']);
    expect(s.iterations.some((i: any) => i.degraded)).toBe(false);
    expect(s.iterations[2].plan_warnings).toEqual([
      expect.stringMatching(/^brief analysis/),
      expect.stringMatching(/same root cause 3 iterations in a row/),
      expect.stringMatching(/asked again once/),
    ]);
    expect(s.outcome_reason).toMatch(/3 iteration\(s\) done/);
  });
});

describe('degraded iterations', () => {
  it('do not end the session by themselves: one without a plan, then the agent recovers and the session converges', async () => {
    const repo = makeRepo(CALC);
    const agent = scenario({
      analyze: [{ say: 'I could not work out what is wrong.' }, planAdd, planMultiply],
      fix: [{}, { edits: [editAdd] }, { edits: [editMultiply] }],
    });
    const run = await runCli(repo, [...base, '--agent-cmd', agentCmd(agent.path)]);
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    expect(state(repo).iterations.map((i: any) => i.result)).toEqual(['degraded', 'improved', 'improved']);
  });

  it('stop the session at the third in a row, saying why', async () => {
    const repo = makeRepo(CALC);
    const agent = scenario({ analyze: [{ say: 'no idea' }] });
    const run = await runCli(repo, [...base, '--agent-cmd', agentCmd(agent.path)]);
    expect(run.exitCode, run.stdout + run.stderr).toBe(1);
    const s = state(repo);
    expect(s.iterations.map((i: any) => i.result)).toEqual(['degraded', 'degraded', 'degraded']);
    expect(s.outcome_reason).toMatch(
      /^stopped after 3 degraded iterations in a row \(the limit is 3, see --max-degraded\): no agent produced a usable plan or a change; the last: every agent failed to produce a usable fix plan: scripted-agent: invalid_plan/,
    );
    expect(run.stdout).toMatch(/\[done\] failure — stopped after 3 degraded iterations in a row/);
  });

  it('include a fix that changed no file: --max-degraded stops a loop of them', async () => {
    const repo = makeRepo(CALC);
    const agent = scenario({ analyze: [planAdd], fix: [{}] });
    const run = await runCli(repo, [
      ...base,
      '--agent-cmd',
      agentCmd(agent.path),
      '--max-iterations',
      '10',
      '--max-degraded',
      '2',
    ]);
    expect(run.exitCode, run.stdout + run.stderr).toBe(1);
    const s = state(repo);
    expect(s.iterations.map((i: any) => [i.result, i.degraded])).toEqual([
      ['no_change', true],
      ['no_change', true],
    ]);
    expect(s.outcome_reason).toMatch(
      /^stopped after 2 degraded iterations in a row \(the limit is 2, see --max-degraded\): no agent produced a usable plan or a change; the last: the fix agent changed no file/,
    );
    expect(agent.calls().filter((c) => c.startsWith('agent fix'))).toHaveLength(2);
  });

  it('stop at the limit --max-degraded sets', async () => {
    const repo = makeRepo(CALC);
    const agent = scenario({ analyze: [{ say: 'no idea' }] });
    const run = await runCli(repo, [...base, '--agent-cmd', agentCmd(agent.path), '--max-degraded', '1']);
    expect(run.exitCode, run.stdout + run.stderr).toBe(1);
    expect(state(repo).iterations).toHaveLength(1);
    expect(state(repo).outcome_reason).toMatch(/^stopped after 1 degraded iterations in a row \(the limit is 1/);
  });
});

describe('maxDegraded in fixcycle.config.json', () => {
  it('sets the limit when --max-degraded is not given', async () => {
    const repo = makeRepo(CALC, { 'fixcycle.config.json': JSON.stringify({ maxDegraded: 2 }) });
    const agent = scenario({ analyze: [{ say: 'no idea' }] });
    const run = await runCli(repo, [...base, '--agent-cmd', agentCmd(agent.path)]);
    expect(run.exitCode, run.stdout + run.stderr).toBe(1);
    expect(state(repo).iterations).toHaveLength(2);
    expect(state(repo).outcome_reason).toMatch(/^stopped after 2 degraded iterations in a row \(the limit is 2/);
  });
});

describe('a rate limit with no other agent to ask', () => {
  it('is waited out: fixcycle says how long, waits for the announced reset, asks again, and the iteration goes on', async () => {
    const repo = makeRepo(CALC);
    const agent = scenario({
      analyze: [{ ...planAdd, rateLimitOnceSec: 2 }, planMultiply],
      fix: [{ edits: [editAdd] }, { edits: [editMultiply] }],
    });
    const run = await runCli(repo, [...base, '--agent-cmd', agentCmd(agent.path)]);
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/\[agent\] scripted-agent \(analyze\): rate_limited — rate-limited: API Error: 429/);
    expect(run.stdout).toMatch(
      /\[wait\] waiting [12] s for scripted-agent's rate limit to reset \(until \d\d:\d\d:\d\d\)/,
    );
    expect(agent.calls().slice(0, 3)).toEqual([
      'agent analyze 1 conservative',
      'agent analyze 1 conservative',
      'agent fix 1 conservative',
    ]);
    // The second ask came after the reset, not at once.
    const limitedAt = Number(readFileSync(join(agent.dir, 'limited-agent-analyze-1'), 'utf8'));
    expect(statSync(join(agent.dir, 'prompt-agent-analyze-1.txt')).mtimeMs - limitedAt).toBeGreaterThanOrEqual(1500);
    expect(state(repo).iterations.map((i: any) => i.result)).toEqual(['improved', 'improved']);
  });

  it('does not hold a stop: Ctrl-C during the wait ends the session at once, resumable', async () => {
    const repo = makeRepo(CALC);
    const agent = scenario({ analyze: [{ ...planAdd, rateLimitOnceSec: 600 }] });
    const child = execa(process.execPath, [CLI, ...base, '--agent-cmd', agentCmd(agent.path)], {
      cwd: repo,
      reject: false,
      env: { FORCE_COLOR: '0' },
    });
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    const deadline = Date.now() + 60_000;
    while (!/\[wait\] waiting (10 min|9 min 5\d s)/.test(out)) {
      if (Date.now() > deadline) throw new Error(`no wait line:\n${out}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const stoppedAt = Date.now();
    child.kill('SIGINT');
    const run = await child;
    expect(Date.now() - stoppedAt).toBeLessThan(10_000);
    expect(run.exitCode, run.stdout + run.stderr).toBe(130);
    expect(state(repo).status).toBe('interrupted');
  });

  it('is not waited out when the reset is hours away: the iteration is degraded with that reason', async () => {
    const repo = makeRepo(CALC);
    const agent = scenario({ analyze: [{ ...planAdd, rateLimitOnceSec: 3 * 3600 }] });
    const run = await runCli(repo, [...base, '--agent-cmd', agentCmd(agent.path), '--max-degraded', '1']);
    expect(run.exitCode, run.stdout + run.stderr).toBe(1);
    expect(run.stdout).not.toMatch(/\[wait\]/);
    expect(state(repo).iterations[0].note).toMatch(
      /scripted-agent is rate-limited until \d\d:\d\d:\d\d \(in (?:3 h|2 h 59 min), the reset time it announced\), longer than fixcycle waits \(15 min\)/,
    );
  });
});
