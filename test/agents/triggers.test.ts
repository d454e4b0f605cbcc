import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentCall } from '../../src/engine/agents/agent.js';
import { bestCandidate } from '../../src/engine/agents/plan-choice.js';
import {
  analysisWords,
  makePlanJudge,
  parseModificationPoint,
  repeatedRootCause,
  unjudgedAgents,
} from '../../src/engine/agents/triggers.js';
import type { FixHistoryEntry, FixPlan } from '../../src/engine/session/schema.js';
import { builtIn, cleanup, makeRepo } from './helpers.js';

const LONG_APPROACH = Array.from({ length: 110 }, (_, i) => `step${i}`).join(' ');
const plan = (fields: Partial<FixPlan> = {}): FixPlan => ({
  root_causes: ['add subtracts its second argument instead of adding it'],
  modification_points: ['src/math.js:add:1-3'],
  affected_tests: ['test/math.test.js::adds two numbers'],
  confidence_score: 0.8,
  approach: LONG_APPROACH,
  ...fields,
});
const call = (p: FixPlan, agent = 'gemini'): AgentCall => ({
  agent,
  role: 'analyze',
  exitCode: 0,
  timedOut: false,
  durationMs: 1,
  classification: 'ok',
  finalText: JSON.stringify(p),
  stdout: '',
  stderr: '',
});
const history = (iteration: number, cause: string): FixHistoryEntry => ({
  iteration,
  agent: 'gemini',
  strategy: 'conservative',
  root_causes: [cause],
  modification_points: [],
  files_changed: ['src/math.js'],
  pass_rate_before: 50,
  pass_rate_after: 50,
  outcome: 'no_change',
  at: '2026-01-01T00:00:00Z',
});

let repo: string;
beforeAll(() => {
  repo = makeRepo();
});
afterAll(() => cleanup(repo));

const judge = (ctx: Partial<Parameters<typeof makePlanJudge>[0]> = {}) =>
  makePlanJudge({ repo, iteration: 1, history: [], ...ctx });

describe('the soft signals on a valid plan', () => {
  it('finds nothing to say about a detailed plan that points into an existing file', () => {
    expect(judge()(plan(), call(plan()))).toEqual({ warnings: [], concreteness: 3, repeatedCause: null });
  });

  it('notes an analysis under 100 words, and keeps the plan', () => {
    const brief = plan({ approach: 'Fix add.' });
    expect(judge()(brief, call(brief)).warnings).toEqual([expect.stringMatching(/^brief analysis: \d+ words < 100$/)]);
  });

  it('takes a file path alone as a concrete modification point, noting only that it names no function or lines', () => {
    const fileOnly = plan({ modification_points: ['src/math.js'] });
    const judged = judge()(fileOnly, call(fileOnly));
    expect(judged.concreteness).toBe(2);
    expect(judged.warnings).toEqual(['modification points name no function or lines: src/math.js']);
  });

  it.each([
    ['general suggestions only', ['improve the arithmetic module'], /only general suggestions/, 0],
    ['a file that does not exist', ['src/maths.js:add:1-3'], /src\/maths.js does not exist in the repository/, 1],
    ['a path that leaves the repository', ['../outside.js:run:1'], /does not exist in the repository/, 1],
  ])('notes %s, ranking it below a point in an existing file', (_name, points, reason, level) => {
    const vague = plan({ modification_points: points });
    const judged = judge()(vague, call(vague));
    expect(judged.warnings).toEqual([expect.stringMatching(reason)]);
    expect(judged.concreteness).toBe(level);
  });

  it('notes the same root cause three iterations in a row, worded a little differently, and names it', () => {
    const past = [
      history(1, 'add subtracts its second argument instead of adding it'),
      history(2, 'The add function subtracts its second argument instead of adding it.'),
    ];
    const judged = judge({ iteration: 3, history: past })(plan(), call(plan()));
    expect(judged.warnings).toEqual([expect.stringMatching(/same root cause 3 iterations in a row/)]);
    expect(judged.repeatedCause).toBe('add subtracts its second argument instead of adding it');
  });

  it('does not count a root cause seen twice with a gap, or only once before', () => {
    const gap = [
      history(1, 'add subtracts its second argument instead of adding it'),
      history(3, 'add subtracts its second argument instead of adding it'),
    ];
    expect(repeatedRootCause(plan(), gap, 4)).toBeNull();
    expect(
      repeatedRootCause(plan(), [history(2, 'add subtracts its second argument instead of adding it')], 3),
    ).toBeNull();
    expect(
      repeatedRootCause(
        plan(),
        [history(1, 'mul overflows for large numbers'), history(2, 'mul overflows for large numbers')],
        3,
      ),
    ).toBeNull();
  });

  it('does not judge the manual agent, whose plan is the failures themselves', () => {
    const brief = plan({ approach: 'Manual.', modification_points: ['test/math.test.js:adds two numbers:'] });
    const exempt = unjudgedAgents([builtIn('gemini'), builtIn('manual')]);
    expect(exempt).toEqual(['manual']);
    expect(judge({ exempt })(brief, call(brief, 'manual')).warnings).toEqual([]);
    expect(judge({ exempt })(brief, call(brief, 'gemini')).warnings).toEqual([expect.stringMatching(/brief analysis/)]);
  });
});

describe('choosing among plans with warnings', () => {
  const candidate = (confidence: number, points: string[], order: number, agent = `agent${order}`) => {
    const p = plan({ confidence_score: confidence, modification_points: points, approach: 'short' });
    return { plan: p, agent, judgement: judge()(p, call(p, agent)), order };
  };

  it('takes the highest confidence, then the most concrete, then the first asked', () => {
    expect(
      bestCandidate([candidate(0.6, ['src/math.js:add:1-3'], 1), candidate(0.8, ['the add function'], 2)]).agent,
    ).toBe('agent2');
    expect(bestCandidate([candidate(0.7, ['the add function'], 1), candidate(0.7, ['src/math.js'], 2)]).agent).toBe(
      'agent2',
    );
    expect(bestCandidate([candidate(0.7, ['src/math.js'], 1), candidate(0.7, ['src/math.js'], 2)]).agent).toBe(
      'agent1',
    );
  });
});

describe('reading a plan', () => {
  it.each([
    ['src/math.js:add:12-14', { file: 'src/math.js', place: 'add:12-14' }],
    ['`src/auth/client.ts:sendRequest:45-50`', { file: 'src/auth/client.ts', place: 'sendRequest:45-50' }],
    ['src/a.b.ts:12', { file: 'src/a.b.ts', place: '12' }],
    ['lib/parser:parse', { file: 'lib/parser', place: 'parse' }],
    ['the add function', null],
    ['lib/parse.js', { file: 'lib/parse.js', place: '' }],
    ['in `src/calc.js`, the add function', { file: 'src/calc.js', place: 'in, the add function' }],
    ['src/calc.js (the add function)', { file: 'src/calc.js', place: 'the add function' }],
    ['improve it, e.g. by rounding', null],
  ])('parses the modification point %s', (point, expected) => {
    expect(parseModificationPoint(point)).toEqual(expected);
  });

  it('counts the words of the analysis without the JSON keys', () => {
    const p = plan({ approach: 'one two three', root_causes: ['four five'] });
    expect(
      analysisWords('Some prose first.\n' + JSON.stringify({ root_causes: p.root_causes, approach: p.approach }), p),
    ).toBe(8);
  });
});
