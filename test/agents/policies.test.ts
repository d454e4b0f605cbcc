import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { agentPolicies } from '../../src/engine/agents/policies.js';
import { Repo } from '../../src/engine/git.js';
import type { LoopContext } from '../../src/engine/loop/context.js';
import type { IterationState } from '../../src/engine/session/schema.js';
import { SessionFiles } from '../../src/engine/session/session-files.js';
import { builtIn, cleanup, MATH_TEST, makeRepo } from './helpers.js';

let dir: string;
let ctx: LoopContext;

beforeEach(async () => {
  dir = makeRepo();
  const repo = await Repo.open(dir);
  await repo.excludeSessionFolder();
  const session = new SessionFiles(dir, 'WFS-test-policies');
  await session.ensureFolders();
  await session.saveBaseline([
    { id: 'test/math.test.js::adds two numbers', name: 'adds two numbers', file: 'test/math.test.js' },
  ]);
  // Only what the policies read: the rest of a LoopContext belongs to the loop.
  ctx = { repo, session, options: {}, agents: [builtIn('gemini'), builtIn('manual')] } as unknown as LoopContext;
});
afterEach(() => cleanup(dir));

const state = { current_iteration: 3 } as IterationState;
const call = (fields: Record<string, unknown>) =>
  ({
    agent: 'gemini',
    role: 'analyze',
    exitCode: 0,
    timedOut: false,
    durationMs: 30_000,
    finalText: '',
    stdout: '',
    stderr: '',
    classification: 'ok',
    ...fields,
  }) as never;

describe('the AI-CLI policies of the loop', () => {
  it('rejects a cheating fix from the real diff, and passes an honest one', async () => {
    const policies = agentPolicies(ctx);
    writeFileSync(join(dir, 'test/math.test.js'), MATH_TEST.replace("test('adds", "test.skip('adds"));
    const cheat = await policies.checkFix!({ changedFiles: await ctx.repo.changedFiles(), plan: null });
    expect(cheat.rejected).toEqual([
      "adds a .skip/.only/.todo marker in test/math.test.js: test.skip('adds two numbers', () => {",
    ]);
    await ctx.repo.restoreFiles(['test/math.test.js']);
    writeFileSync(join(dir, 'src/math.js'), 'export function add(a, b) {\n  return a + b;\n}\n');
    expect(await policies.checkFix!({ changedFiles: await ctx.repo.changedFiles(), plan: null })).toEqual({
      rejected: null,
      testEdits: [],
    });
  });

  it('judges plans against the fix history on disk, sparing the manual agent, and words the re-ask of a stuck analysis', async () => {
    const cause = 'add subtracts its second argument instead of adding it';
    for (const iteration of [1, 2]) {
      await ctx.session.recordFix({
        iteration,
        agent: 'gemini',
        strategy: 'conservative',
        root_causes: [cause],
        modification_points: [],
        files_changed: [],
        pass_rate_before: 50,
        pass_rate_after: 50,
        outcome: 'no_change',
        at: '2026-01-01T00:00:00Z',
      });
    }
    const hooks = agentPolicies(ctx).chainHooks!(state, await ctx.session.readHistory());
    const plan = {
      root_causes: [cause],
      modification_points: ['src/math.js:add:1-3'],
      affected_tests: [],
      confidence_score: 0.9,
      approach: Array.from({ length: 120 }, () => 'word').join(' '),
    };
    expect(hooks.judgePlan!(plan, call({ finalText: JSON.stringify(plan) }))).toMatchObject({
      warnings: [expect.stringMatching(/same root cause 3 iterations in a row/)],
      repeatedCause: cause,
    });
    expect(hooks.judgePlan!(plan, call({ agent: 'manual' })).warnings).toEqual([]);
    // The one re-ask of a stuck analysis tells the agent which cause was tried and what its fixes did.
    const reask = hooks.reaskPrompt!(cause);
    expect(reask).toContain(`"${cause}"`);
    expect(reask).toMatch(/- iteration 1: no change \(pass rate 50% -> 50%\)/);
    expect(reask).not.toContain('<!--');
  });

  it('cools a rate-limited agent down and counts every call against the budget, across a resume', async () => {
    const first = agentPolicies(ctx, { budget: { calls: 3, minutes: 10 } });
    const hooks = first.chainHooks!(state, await ctx.session.readHistory());
    await hooks.onCall!(call({ classification: 'rate_limited', retryAt: Date.now() + 60_000 }));
    expect(hooks.unavailable!('gemini')).toMatch(/cooling down/);
    expect(first.budgetExceeded!()).toBeNull();
    for (const duration of [30_000, 30_000])
      await ctx.session.appendAgentCall({ agent: 'gemini', duration_ms: duration, classification: 'ok' });
    await ctx.session.appendAgentCall({ agent: 'claude', duration_ms: 30_000, classification: 'ok', cost_usd: 0.02 });

    const resumed = agentPolicies(ctx, { budget: { calls: 3 } });
    expect(resumed.chainHooks!(state, await ctx.session.readHistory()).unavailable!('gemini')).toMatch(/cooling down/);
    expect(resumed.budgetExceeded!()).toBe('budget reached: 3 of 3 agent calls');
    expect(resumed.budget.spent()).toMatchObject({ calls: 3, minutes: 1.5, usd: 0.02 });
  });
});
