import { describe, expect, it } from 'vitest';
import { buildTestResults, type BuildResultsInput } from '../../src/engine/decisions/test-results.js';
import type { TestCase } from '../../src/engine/types.js';

const t = (id: string, status: TestCase['status'], message?: string): TestCase => ({
  id,
  name: id,
  status,
  ...(message ? { message } : {}),
});
const baseline = ['a', 'b', 'c', 'd'].map((id) => ({ id, name: id }));

function build(tests: TestCase[], overrides: Partial<BuildResultsInput> = {}) {
  return buildTestResults({
    baseline,
    result: { format: 'junit', tests, errors: [], truncated: false },
    scope: 'full',
    source: 'report',
    exitCode: tests.some((x) => x.status === 'failed') ? 1 : 0,
    timedOut: false,
    durationMs: 10,
    outputTail: '',
    criticality: { rules: [] },
    ...overrides,
  });
}

describe('buildTestResults', () => {
  it('computes the pass rate over the baseline', () => {
    const r = build([t('a', 'passed'), t('b', 'passed'), t('c', 'passed'), t('d', 'failed', 'boom')]);
    expect(r).toMatchObject({ total: 4, passed: 3, failed: 1, pass_rate: 75 });
    expect(r.failures[0]).toMatchObject({
      id: 'd',
      message: 'boom',
      criticality: 'medium',
      criticality_source: 'default',
    });
  });

  it('never rises when a failing baseline test is deleted: a missing test counts as failing', () => {
    const r = build([t('a', 'passed'), t('b', 'passed'), t('c', 'passed')]);
    expect(r.pass_rate).toBe(75);
    expect(r.failures[0]).toMatchObject({ id: 'd', missing: true });
  });

  it('keeps the status from the run before for a test the stopped command listed as not run (cargo --list)', () => {
    const stopped = 'cargo test stopped at the first failing target (--lib), so the targets after it did not run';
    const tests = [t('a', 'passed'), t('b', 'failed', 'boom'), t('c', 'failed', `not run: ${stopped}`)];
    const r = build(tests, {
      result: { format: 'libtest', tests, errors: [], truncated: false, stopped },
      previous: new Map([['c', { status: 'passed' as const }]]),
    });
    // c passed in the run before and keeps it; d was never seen, and is not run rather than missing.
    expect(r).toMatchObject({ total: 4, passed: 2, failed: 2 });
    expect(r.failures.map((f) => [f.id, f.missing === true])).toEqual([
      ['b', false],
      ['d', false],
    ]);
  });

  it('never calls a test missing when the command stopped before it (lerna at a failing package, cargo at a failing target)', () => {
    const stopped = 'lerna stopped at the first failing package, so the packages after it did not run';
    const previous = new Map([['c', { status: 'passed' as const }]]);
    const r = build([t('a', 'passed'), t('b', 'failed', 'boom')], {
      result: {
        format: 'injected',
        tests: [t('a', 'passed'), t('b', 'failed', 'boom')],
        errors: [],
        truncated: false,
        stopped,
      },
      previous,
    });
    // c ran in the last run and keeps its status; d has none to keep and is reported as not run, not missing.
    expect(r).toMatchObject({ total: 4, passed: 2, failed: 2 });
    expect(r.failures.map((f) => [f.id, f.missing ?? false])).toEqual([
      ['b', false],
      ['d', false],
    ]);
    expect(r.failures[1]!.message).toBe(`not run: ${stopped}`);
  });

  it('gives a failure the monorepo package of its test', () => {
    const r = build([
      { ...t('a', 'failed', 'boom'), package: 'packages/alpha' },
      t('b', 'passed'),
      t('c', 'passed'),
      t('d', 'passed'),
    ]);
    expect(r.failures[0]).toMatchObject({ id: 'a', package: 'packages/alpha' });
  });

  it("leaves out an assertion that existed only while its test failed, once the whole test passes (tape's plan != count)", () => {
    // tape names a file only for a failing assertion (from its stack); passing ones have none.
    const tape = [
      { id: 'reuse > plan != count', name: 'plan != count', file: 'test.js' },
      ...['reuse > instance must be reused', 'reuse > should be equal', 'other > ok'].map((id) => ({ id, name: id })),
    ];
    const fixed = [t('reuse > should be equal', 'passed'), t('other > ok', 'passed')];
    const r = build(fixed, { baseline: tape });
    expect(r).toMatchObject({ total: 2, passed: 2, failed: 0, pass_rate: 100 });
  });

  it('still counts a vanished assertion as failing while its test fails, or when its whole test is gone', () => {
    const tape = ['reuse > plan != count', 'reuse > should be equal', 'gone > ok'].map((id) => ({
      id,
      name: id,
      file: 'test.js',
    }));
    const stillFailing = build([{ ...t('reuse > should be equal', 'failed', 'boom'), file: 'test.js' }], {
      baseline: tape,
    });
    expect(stillFailing.failures.map((f) => f.id).sort()).toEqual([
      'gone > ok',
      'reuse > plan != count',
      'reuse > should be equal',
    ]);
    expect(stillFailing.pass_rate).toBe(0);
  });

  it('counts a baseline test that is now skipped as not passing', () => {
    const r = build([t('a', 'passed'), t('b', 'passed'), t('c', 'passed'), t('d', 'skipped')]);
    expect(r.pass_rate).toBe(75);
    expect(r.failures[0]!.message).toMatch(/now skipped/);
  });

  it('leaves out tests skipped from the start', () => {
    const r = build([t('a', 'passed'), t('b', 'passed'), t('c', 'passed'), t('d', 'skipped')], {
      baseline: [...baseline.slice(0, 3), { id: 'd', name: 'd', skipped: true }],
    });
    expect(r).toMatchObject({ pass_rate: 100, skipped: 1, failed: 0 });
  });

  it('does not let new tests raise the pass rate, but a failing new test is a failure', () => {
    const r = build([
      t('a', 'passed'),
      t('b', 'failed'),
      t('c', 'passed'),
      t('d', 'passed'),
      t('e', 'passed'),
      t('f', 'failed'),
    ]);
    expect(r.pass_rate).toBe(75);
    expect(r.failures.map((f) => f.id)).toEqual(['b', 'f']);
  });

  it('keeps the last status of tests an affected run did not select', () => {
    const previous = new Map([
      ['a', { status: 'passed' as const }],
      [
        'b',
        {
          status: 'failed' as const,
          failure: {
            id: 'b',
            name: 'b',
            message: 'old',
            criticality: 'high' as const,
            criticality_source: 'config' as const,
          },
        },
      ],
      ['c', { status: 'passed' as const }],
      [
        'd',
        {
          status: 'failed' as const,
          failure: {
            id: 'd',
            name: 'd',
            message: 'x',
            criticality: 'medium' as const,
            criticality_source: 'default' as const,
          },
        },
      ],
    ]);
    const r = build([t('d', 'passed')], { scope: 'affected', previous });
    expect(r).toMatchObject({ pass_rate: 75, scope: 'affected', ran: ['d'] });
    expect(r.failures).toEqual([expect.objectContaining({ id: 'b', message: 'old' })]);
  });

  it('counts an error outside tests against the run', () => {
    const r = build([t('a', 'passed'), t('b', 'passed'), t('c', 'passed'), t('d', 'passed')], {
      result: {
        format: 'junit',
        tests: [t('a', 'passed'), t('b', 'passed'), t('c', 'passed'), t('d', 'passed')],
        errors: [{ message: 'Cannot find module x', file: 'test/x.test.js' }],
        truncated: false,
      },
    });
    expect(r.pass_rate).toBe(80);
    expect(r.errors).toHaveLength(1);
  });

  it('never reads a crashed run with no report as success', () => {
    const r = build([], {
      baseline: [],
      exitCode: 1,
      source: 'exit-code',
      outputTail: 'SyntaxError: Unexpected token',
    });
    expect(r.pass_rate).toBe(0);
    expect(r.errors[0]!.message).toMatch(/exited 1 without reporting any test:\nSyntaxError/);
  });

  it('records a timeout and a truncated report as errors', () => {
    expect(build([t('a', 'passed')], { timedOut: true, durationMs: 5000 }).errors[0]!.message).toMatch(
      /timed out after 5 s/,
    );
    expect(
      build([t('a', 'passed')], { result: { format: 'tap', tests: [t('a', 'passed')], errors: [], truncated: true } })
        .errors[0]!.message,
    ).toMatch(/stops early/);
  });

  it('uses the first run itself as the baseline', () => {
    const r = build([t('x', 'passed'), t('y', 'failed'), t('z', 'skipped')], { baseline: [] });
    expect(r).toMatchObject({ total: 3, passed: 1, failed: 1, skipped: 1, pass_rate: 50 });
  });

  it('applies criticality rules from the config', () => {
    const r = build([t('a', 'passed'), t('b', 'passed'), t('c', 'passed'), t('d', 'failed')], {
      criticality: { rules: [{ match: '^d$', level: 'low' }] },
    });
    expect(r.failures[0]).toMatchObject({ criticality: 'low', criticality_source: 'config' });
  });
});
