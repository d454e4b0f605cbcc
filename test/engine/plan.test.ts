import { describe, expect, it } from 'vitest';
import { extractPlan } from '../../src/engine/agents/plan.js';

const plan = {
  root_causes: ['x'],
  modification_points: ['src/a.js:f:1-2'],
  affected_tests: ['t'],
  confidence_score: 0.8,
  approach: 'do y',
};

describe('extractPlan', () => {
  it('reads a plan in a ```json fence after prose', () => {
    expect(extractPlan(`I looked.\n\`\`\`json\n${JSON.stringify(plan)}\n\`\`\`\nDone.`)).toEqual({ ok: true, plan });
  });
  it('reads a bare JSON object, the last one winning', () => {
    expect(extractPlan(`{"note": "draft"}\nfinal: ${JSON.stringify(plan)}`)).toEqual({ ok: true, plan });
  });
  it('copes with braces inside strings', () => {
    const tricky = { ...plan, approach: 'replace "}" with "{"' };
    expect(extractPlan(JSON.stringify(tricky))).toEqual({ ok: true, plan: tricky });
  });
  it('says why a plan is invalid', () => {
    expect(extractPlan(JSON.stringify({ ...plan, confidence_score: 2 }))).toMatchObject({
      ok: false,
      error: expect.stringMatching(/confidence_score/),
    });
    expect(extractPlan(JSON.stringify({ ...plan, modification_points: [] }))).toMatchObject({
      ok: false,
      error: expect.stringMatching(/modification_points/),
    });
  });
  it('rejects prose without JSON', () => {
    expect(extractPlan('all good')).toEqual({ ok: false, error: 'no JSON object in the answer' });
  });
});
