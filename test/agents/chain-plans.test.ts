import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { analyzeWithChain, fixWithChain, type ChainHooks } from '../../src/engine/agents/chain.js';
import { Cooldowns } from '../../src/engine/agents/cooldown.js';
import { makeResetWaiter } from '../../src/engine/agents/reset-wait.js';
import { resolveAgents } from '../../src/engine/agents/resolve.js';
import { makePlanJudge } from '../../src/engine/agents/triggers.js';
import type { EngineEvent } from '../../src/engine/events.js';
import type { FixHistoryEntry } from '../../src/engine/session/schema.js';
import { agentCmd, scenario } from '../helpers/repo.js';
import { builtIn, cleanup, makeRepo, tempDir } from './helpers.js';

// Real child processes: the scripted agent of the end-to-end tests, run as plain commands of the agent protocol.

let repo: string;
let session: string;
beforeEach(() => {
  repo = makeRepo();
  session = tempDir('fixcycle-session-');
});
afterEach(() => cleanup(repo, session));

const plan = (cause: string, point: string, confidence = 0.9) => ({
  plan: {
    root_causes: [cause],
    modification_points: [point],
    affected_tests: [],
    confidence_score: confidence,
    approach: 'return a + b',
  },
});
const env = { FIXCYCLE_ROLE: 'analyze', FIXCYCLE_ITERATION: '1', FIXCYCLE_STRATEGY: 'conservative' };
const request = (extra: Record<string, string> = {}) => ({
  prompt: 'Analyse the failing tests.',
  cwd: repo,
  env: { ...env, ...extra },
  timeoutMs: 20_000,
});
const chainOf = (...scenarios: { path: string }[]) =>
  resolveAgents({ agentCmds: scenarios.map((s, i) => agentCmd(s.path, `a${i + 1}`)) }, {});
const judge = (history: FixHistoryEntry[] = [], iteration = 1) => makePlanJudge({ repo, iteration, history });

describe('a plan with soft warnings', () => {
  it('goes on to the next agent when one is free, and uses its clean plan', async () => {
    const first = scenario({ analyze: [plan('add subtracts', 'src/math.js')] });
    // The second answer is long enough to carry no warning at all.
    const long = {
      plan: {
        ...plan('add subtracts', 'src/math.js:add:1-3').plan,
        approach: Array.from({ length: 110 }, (_, i) => `w${i}`).join(' '),
      },
    };
    const second = scenario({ analyze: [long] });
    const outcome = await analyzeWithChain(chainOf(first, second), request(), { judgePlan: judge() });
    expect(outcome.agent).toBe('scripted-agent-2');
    expect(outcome.warnings).toEqual([]);
    expect(outcome.calls.map((c) => [c.agent, c.classification])).toEqual([
      ['scripted-agent-1', 'ok'],
      ['scripted-agent-2', 'ok'],
    ]);
    expect(outcome.calls[0]!.detail).toMatch(
      /^plan with warnings: brief analysis: \d+ words < 100; modification points name no function or lines: src\/math\.js$/,
    );
  });

  it('is used, warnings and all, when the next agent is cooling down: that agent is not even started', async () => {
    const first = scenario({ analyze: [plan('add subtracts', 'src/math.js')] });
    const second = scenario({ analyze: [plan('add subtracts', 'src/math.js:add:1-3')] });
    const hooks: ChainHooks = {
      judgePlan: judge(),
      unavailable: (agent) => (agent === 'scripted-agent-2' ? 'cooling down' : null),
    };
    const outcome = await analyzeWithChain(chainOf(first, second), request(), hooks);
    expect(outcome.agent).toBe('scripted-agent-1');
    expect(outcome.plan?.modification_points).toEqual(['src/math.js']);
    expect(outcome.warnings).toEqual([
      expect.stringMatching(/^brief analysis/),
      'modification points name no function or lines: src/math.js',
    ]);
    expect(second.calls()).toEqual([]);
  });

  it('is not traded for the manual agent, whose plan is only the failures themselves', async () => {
    const first = scenario({ analyze: [plan('add subtracts', 'src/math.js')] });
    const outcome = await analyzeWithChain([...chainOf(first), builtIn('manual')], request(), { judgePlan: judge() });
    expect(outcome.agent).toBe('scripted-agent');
    expect(outcome.calls.map((c) => c.agent)).toEqual(['scripted-agent']);
  });

  it('loses to a more confident plan with warnings of its own, and ties go to the more concrete', async () => {
    const unsure = scenario({ analyze: [plan('add subtracts', 'src/math.js:add:1-3', 0.6)] });
    const sure = scenario({ analyze: [plan('add subtracts', 'src/math.js', 0.8)] });
    expect((await analyzeWithChain(chainOf(unsure, sure), request(), { judgePlan: judge() })).agent).toBe(
      'scripted-agent-2',
    );
    const vague = scenario({ analyze: [plan('add subtracts', 'the add function', 0.8)] });
    const fileOnly = scenario({ analyze: [plan('add subtracts', 'src/math.js', 0.8)] });
    const outcome = await analyzeWithChain(chainOf(vague, fileOnly), request(), { judgePlan: judge() });
    expect(outcome.agent).toBe('scripted-agent-2');
    expect(outcome.calls).toHaveLength(2);
  });

  it('of a single agent stuck on one root cause gets one re-ask carrying what was tried', async () => {
    const cause = 'add subtracts its second argument';
    const agent = scenario({ analyze: [plan(cause, 'src/math.js:add:1-3')] });
    const tried = (iteration: number): FixHistoryEntry => ({
      iteration,
      agent: 'a1',
      strategy: 'conservative',
      root_causes: [cause],
      modification_points: [],
      files_changed: ['src/math.js'],
      pass_rate_before: 50,
      pass_rate_after: 50,
      outcome: 'no_change',
      at: '2026-01-01T00:00:00Z',
    });
    const hooks: ChainHooks = { judgePlan: judge([tried(1), tried(2)], 3), reaskPrompt: (c) => `ALREADY TRIED: ${c}` };
    const outcome = await analyzeWithChain(chainOf(agent), request({ FIXCYCLE_ITERATION: '3' }), hooks);
    expect(agent.calls()).toEqual(['a1 analyze 3 conservative', 'a1 analyze 3 conservative']);
    expect(agent.prompt('a1', 'analyze', 3)).toBe(`Analyse the failing tests.\n\nALREADY TRIED: ${cause}`);
    expect(outcome.plan?.root_causes).toEqual([cause]);
    expect(outcome.warnings.at(-1)).toBe(`asked again once about the repeated root cause: ${cause}`);
  });
});

describe('a chain where nobody can be asked', () => {
  it('says why each agent was skipped, so the degraded iteration names the cause', async () => {
    const agent = scenario({ analyze: [plan('add subtracts', 'src/math.js:add:1-3')] });
    const outcome = await analyzeWithChain(chainOf(agent), request(), {
      unavailable: () => 'not authenticated in this run (log in to claude)',
    });
    expect(outcome.plan).toBeNull();
    expect(outcome.failure).toBe('scripted-agent skipped: not authenticated in this run (log in to claude)');
    expect(agent.calls()).toEqual([]);
  });
});

describe('a rate limit with no other agent to ask', () => {
  it('is waited out with a countdown event, and the agent is asked again only once the user resumes', async () => {
    const agent = scenario({ analyze: [{ ...plan('add subtracts', 'src/math.js:add:1-3'), rateLimitOnceSec: 1 }] });
    const cooldowns = await Cooldowns.load(session);
    const events: EngineEvent[] = [];
    let resume!: () => void;
    let gateAskedAt = 0;
    const hooks: ChainHooks = {
      unavailable: cooldowns.unavailable,
      onCall: (call) => cooldowns.record(call),
      resetAt: (a) => cooldowns.resetAt(a),
      waitForReset: makeResetWaiter({ emit: (e) => events.push(e), iteration: 1 }),
      // The user paused during the wait: the gate holds until they resume.
      gate: () => {
        gateAskedAt = Date.now();
        return new Promise((resolve) => (resume = () => resolve(true)));
      },
    };
    const pending = analyzeWithChain(chainOf(agent), request(), hooks);
    while (!gateAskedAt) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 300));
    expect(agent.calls()).toHaveLength(1);
    const resumedAt = Date.now();
    resume();
    const outcome = await pending;
    expect(outcome.agent).toBe('scripted-agent');
    expect(outcome.calls.map((c) => c.classification)).toEqual(['rate_limited', 'ok']);
    const limitedAt = Number(readFileSync(join(agent.dir, 'limited-a1-analyze-1'), 'utf8'));
    expect(gateAskedAt - limitedAt).toBeGreaterThanOrEqual(700);
    expect(statSync(join(agent.dir, 'prompt-a1-analyze-1.txt')).mtimeMs).toBeGreaterThanOrEqual(resumedAt - 5);
    expect(
      events.filter((e) => e.type === 'wait').map((e) => (e as { untilMs: number | null }).untilMs === null),
    ).toEqual([false, true]);
    expect(events.find((e) => e.type === 'output')).toMatchObject({
      lines: [
        expect.stringMatching(
          /^waiting 1 s for scripted-agent's rate limit to reset \(until \d\d:\d\d:\d\d, the reset time it announced\)$/,
        ),
      ],
    });
  });

  it('ends the wait at once when the user stops', async () => {
    const agent = scenario({ analyze: [{ ...plan('add subtracts', 'src/math.js:add:1-3'), rateLimitOnceSec: 300 }] });
    const cooldowns = await Cooldowns.load(session);
    const controller = new AbortController();
    const hooks: ChainHooks = {
      unavailable: cooldowns.unavailable,
      onCall: (call) => cooldowns.record(call),
      resetAt: (a) => cooldowns.resetAt(a),
      waitForReset: makeResetWaiter({
        emit: (e) => e.type === 'wait' && e.untilMs !== null && setTimeout(() => controller.abort(), 100),
        iteration: 1,
      }),
    };
    const started = Date.now();
    const outcome = await analyzeWithChain(chainOf(agent), { ...request(), signal: controller.signal }, hooks);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(outcome.plan).toBeNull();
    expect(outcome.failure).toBe('stopped by the user while waiting for a rate limit to reset');
    expect(agent.calls()).toHaveLength(1);
  });

  it('is waited out for the fix too', async () => {
    const agent = scenario({
      fix: [{ rateLimitOnceSec: 1, edits: [{ file: 'src/math.js', search: 'a - b', replace: 'a + b' }] }],
    });
    const cooldowns = await Cooldowns.load(session);
    const hooks: ChainHooks = {
      unavailable: cooldowns.unavailable,
      onCall: (call) => cooldowns.record(call),
      resetAt: (a) => cooldowns.resetAt(a),
      waitForReset: makeResetWaiter({ emit: () => {}, iteration: 1 }),
    };
    const attempt = await fixWithChain(chainOf(agent), request({ FIXCYCLE_ROLE: 'fix' }), async () => {}, hooks);
    expect(attempt.agent).toBe('scripted-agent');
    expect(attempt.calls.map((c) => c.classification)).toEqual(['rate_limited', 'ok']);
    expect(readFileSync(join(repo, 'src/math.js'), 'utf8')).toContain('a + b');
  });
});
