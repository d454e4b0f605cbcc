import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentCall } from '../../src/engine/agents/agent.js';
import { analysisWords, makePlanJudge, parseModificationPoint, repeatedRootCause, unjudgedAgents } from '../../src/engine/agents/triggers.js';
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
  agent, role: 'analyze', exitCode: 0, timedOut: false, durationMs: 1, classification: 'ok', finalText: JSON.stringify(p), stdout: '', stderr: '',
});
const history = (iteration: number, cause: string): FixHistoryEntry => ({
  iteration, agent: 'gemini', strategy: 'conservative', root_causes: [cause], modification_points: [], files_changed: ['src/math.js'],
  pass_rate_before: 50, pass_rate_after: 50, outcome: 'no_change', at: '2026-01-01T00:00:00Z',
});

let repo: string;
beforeAll(() => {
  repo = makeRepo();
});
afterAll(() => cleanup(repo));

describe('the fallback triggers on a valid plan', () => {
  it('accepts a detailed plan that points into an existing file', () => {
    expect(makePlanJudge({ repo, iteration: 1, history: [] })(plan(), call(plan()))).toBeNull();
  });

  it('rejects an analysis under 100 words', () => {
    const brief = plan({ approach: 'Fix add.' });
    expect(makePlanJudge({ repo, iteration: 1, history: [] })(brief, call(brief))).toMatch(/analysis too brief: \d+ words < 100/);
  });

  it.each([
    ['general suggestions only', ['improve the arithmetic module'], /only general suggestions/],
    ['a file that does not exist', ['src/maths.js:add:1-3'], /src\/maths.js does not exist/],
    ['a file without a place in it', ['src/math.js'], /names no function or lines/],
    ['a path that leaves the repository', ['../outside.js:run:1'], /does not exist in the repository/],
  ])('rejects %s as no concrete modification point', (_name, points, reason) => {
    const vague = plan({ modification_points: points });
    expect(makePlanJudge({ repo, iteration: 1, history: [] })(vague, call(vague))).toMatch(reason);
  });

  it('rejects the same root cause three iterations in a row, worded a little differently', () => {
    const past = [history(1, 'add subtracts its second argument instead of adding it'), history(2, 'The add function subtracts its second argument instead of adding it.')];
    expect(makePlanJudge({ repo, iteration: 3, history: past })(plan(), call(plan()))).toMatch(/same root cause 3 iterations in a row/);
  });

  it('does not count a root cause seen twice with a gap, or only once before', () => {
    const gap = [history(1, 'add subtracts its second argument instead of adding it'), history(3, 'add subtracts its second argument instead of adding it')];
    expect(repeatedRootCause(plan(), gap, 4)).toBeNull();
    expect(repeatedRootCause(plan(), [history(2, 'add subtracts its second argument instead of adding it')], 3)).toBeNull();
    expect(repeatedRootCause(plan(), [history(1, 'mul overflows for large numbers'), history(2, 'mul overflows for large numbers')], 3)).toBeNull();
  });

  it('does not judge the manual agent, whose plan is the failures themselves', () => {
    const brief = plan({ approach: 'Manual.', modification_points: ['test/math.test.js:adds two numbers:'] });
    const exempt = unjudgedAgents([builtIn('gemini'), builtIn('manual')]);
    expect(exempt).toEqual(['manual']);
    expect(makePlanJudge({ repo, iteration: 1, history: [], exempt })(brief, call(brief, 'manual'))).toBeNull();
    expect(makePlanJudge({ repo, iteration: 1, history: [], exempt })(brief, call(brief, 'gemini'))).toMatch(/too brief/);
  });
});

describe('reading a plan', () => {
  it.each([
    ['src/math.js:add:12-14', { file: 'src/math.js', place: 'add:12-14' }],
    ['`src/auth/client.ts:sendRequest:45-50`', { file: 'src/auth/client.ts', place: 'sendRequest:45-50' }],
    ['src/a.b.ts:12', { file: 'src/a.b.ts', place: '12' }],
    ['lib/parser:parse', { file: 'lib/parser', place: 'parse' }],
    ['the add function', null],
  ])('parses the modification point %s', (point, expected) => {
    expect(parseModificationPoint(point)).toEqual(expected);
  });

  it('counts the words of the analysis without the JSON keys', () => {
    const p = plan({ approach: 'one two three', root_causes: ['four five'] });
    expect(analysisWords('Some prose first.\n' + JSON.stringify({ root_causes: p.root_causes, approach: p.approach }), p)).toBe(8);
  });
});
