import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  renderAnalysisPrompt,
  renderFixPrompt,
  PROMPT_VERSION,
  type PromptContext,
} from '../../src/engine/prompts/index.js';
import { fillTemplate, strategyRules, TEMPLATES_DIR } from '../../src/engine/prompts/templates.js';
import type { Failure, Strategy } from '../../src/engine/types.js';

const failure = (i: number, message = `Expected 5, received ${i}`): Failure => ({
  id: `test/math.test.js::case ${i}`,
  name: `case ${i}`,
  file: 'test/math.test.js',
  message,
  stack: `at add (src/math.js:2:10)\nat test/math.test.js:${i}:3`,
  criticality: 'high',
  criticality_source: 'config',
});

const ctx = (strategy: Strategy, fields: Partial<PromptContext> = {}): PromptContext => ({
  iteration: 3,
  maxIterations: 10,
  strategy,
  strategyReason: 'the pass rate is 85% and the failures are similar',
  passRate: 85,
  failures: [failure(1), failure(2)],
  errors: [{ message: "Cannot find module './missing.js'", file: 'test/io.test.js' }],
  stuckTests: ['test/math.test.js::case 1'],
  history: [
    {
      iteration: 2,
      agent: 'gemini',
      strategy: 'conservative',
      root_causes: ['add subtracts'],
      modification_points: ['src/math.js:add:2'],
      approach: 'swap the operator',
      files_changed: ['src/math.js'],
      pass_rate_before: 80,
      pass_rate_after: 60,
      outcome: 'regressed_rolled_back',
      reason: 'pass rate dropped 20 points',
      at: '2026-01-01T00:00:00Z',
    },
  ],
  lastSetback: 'iteration 2 was rolled back: pass rate 80% -> 60%',
  plan: {
    root_causes: ['add subtracts its second argument'],
    modification_points: ['src/math.js:add:1-3'],
    affected_tests: ['test/math.test.js::case 1'],
    confidence_score: 0.9,
    approach: 'Return a + b.',
    tests_are_wrong: ['test/math.test.js::case 2'],
  },
  paths: {
    testResults: '/s/.process/test-results.json',
    testOutput: '/s/.process/test-output.log',
    task: '/s/.task/IMPL-fix-3.json',
    sessionDir: '/s',
  },
  ...fields,
});

const STRATEGIES: Strategy[] = ['conservative', 'aggressive', 'surgical'];
const DEMANDS: Record<Strategy, RegExp> = {
  conservative: /ONE targeted fix .* highly confident/,
  aggressive: /common root cause for all of them in one batch/,
  surgical: /smallest change[\s\S]*easy to roll back/,
};

describe('the analysis prompt (templates/analysis.v1.md)', () => {
  it.each(STRATEGIES)('renders completely for the %s strategy, with what that strategy demands', (strategy) => {
    const text = renderAnalysisPrompt(ctx(strategy));
    expect(text).not.toMatch(/\{\{|\}\}|<!--/);
    expect(text).toContain(`Strategy: ${strategy}, chosen because the pass rate is 85% and the failures are similar`);
    expect(text).toMatch(DEMANDS[strategy]);
    for (const other of STRATEGIES.filter((s) => s !== strategy)) expect(text).not.toMatch(DEMANDS[other]);
  });

  it('gives the failures with messages and stacks, the stuck tests, the history and the JSON to return', () => {
    const text = renderAnalysisPrompt(ctx('surgical'));
    expect(text).toContain('iteration 3 of 10');
    expect(text).toContain(
      '- test/math.test.js::case 1 [criticality high]\n  Expected 5, received 1\n  stack:\n  at add (src/math.js:2:10)',
    );
    expect(text).toContain("- error outside the tests (test/io.test.js):\n  Cannot find module './missing.js'");
    expect(text).toMatch(/## Stuck tests\n- test\/math.test.js::case 1\nThese have failed 3 iterations in a row/);
    expect(text).toContain(
      '- iteration 2 (conservative, gemini): regressed rolled back, pass rate 80% -> 60%; why: pass rate dropped 20 points',
    );
    expect(text).toContain('  approach: swap the operator');
    expect(text).toContain('Last setback: iteration 2 was rolled back: pass rate 80% -> 60%');
    expect(text).toContain('at least 100 words');
    expect(text).toContain('"modification_points": ["file:function:lines, e.g. src/math.js:add:12-14"]');
    expect(text).toContain('"tests_are_wrong"');
    expect(text).toContain('Full test output: /s/.process/test-output.log');
  });

  it('trims the failures to the budget and says how many more there are', () => {
    const many = Array.from({ length: 200 }, (_, i) =>
      failure(i, `Expected 5, received ${i}\n${'detail line\n'.repeat(20)}`),
    );
    const text = renderAnalysisPrompt(ctx('aggressive', { failures: many }));
    expect(text.length).toBeLessThan(16_000);
    const shown = text.match(/^- test\/math.test.js::case \d+ /gm)!.length;
    expect(shown).toBeGreaterThan(10);
    expect(text).toContain(`- ... and ${200 - shown} more failing tests (see /s/.process/test-results.json)`);
    expect(text).toContain('  detail line'); // messages keep 8 lines
    expect(
      text
        .split('\n- test/math.test.js::case 0 ')[1]!
        .split('\n- ')[0]!
        .match(/detail line/g),
    ).toHaveLength(7);
  });

  it('says so when there is no history and nothing stuck', () => {
    const text = renderAnalysisPrompt(ctx('conservative', { history: [], stuckTests: [], lastSetback: undefined }));
    expect(text).toContain('No earlier attempts.');
    expect(text).toContain('## Stuck tests\nNone.');
    expect(text).not.toContain('Last setback');
  });
});

describe('the fix prompt (templates/fix.v1.md)', () => {
  it.each(STRATEGIES)('renders completely for the %s strategy, with the plan and the hard rules', (strategy) => {
    const text = renderFixPrompt(ctx(strategy));
    expect(text).not.toMatch(/\{\{|\}\}|<!--/);
    expect(text).toMatch(DEMANDS[strategy]);
    expect(text).toContain('Root causes:\n- add subtracts its second argument');
    expect(text).toContain('Modification points (file:function:lines):\n- src/math.js:add:1-3');
    expect(text).toContain('Approach:\nReturn a + b.');
    expect(text).toContain('## Tests the analysis found wrong\n- test/math.test.js::case 2');
    expect(text).toMatch(/Do not delete, rename or skip tests: no \.skip, \.only, \.todo, xit/);
    expect(text).toContain('do not replace an expectation with a constant');
    expect(text).toContain('Do not edit snapshots');
    expect(text).toContain('Touch only files inside this repository');
    expect(text).toContain('task file /s/.task/IMPL-fix-3.json');
  });

  it('forbids test edits when the plan names no wrong test', () => {
    const text = renderFixPrompt(
      ctx('conservative', { plan: { ...ctx('conservative').plan!, tests_are_wrong: undefined } }),
    );
    expect(text).toContain('## Tests the analysis found wrong\nNone: do not edit any test file.');
  });
});

describe('the templates', () => {
  it('ship with the package and are versioned', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { files: string[] };
    expect(pkg.files).toContain('templates');
    expect(PROMPT_VERSION).toBe('v1');
    for (const name of ['analysis', 'fix', 'strategies'])
      expect(readFileSync(join(TEMPLATES_DIR, `${name}.v1.md`), 'utf8')).toMatch(/version 1/);
  });

  it('have one rule section per strategy', () => {
    expect(Object.keys(strategyRules()).sort()).toEqual(['aggressive', 'conservative', 'surgical']);
  });

  it('refuse a placeholder fixcycle does not fill', () => {
    expect(() => fillTemplate('Hello {{name}} and {{unknown}}', { name: 'x' }, 'templates/x.v1.md')).toThrow(
      'templates/x.v1.md uses {{unknown}}, which fixcycle does not provide',
    );
  });
});
