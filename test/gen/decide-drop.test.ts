import { describe, expect, it } from 'vitest';
import { decideDrop, type TestEvidence } from '../../src/engine/gen/decide-drop.js';

const passing: TestEvidence = { collected: true, statuses: Array(5).fill('passed'), runs: 5 };
const noAssertion = { check: 'no-assertion', message: 'test "x" asserts nothing' };
const constant = { check: 'constant-assertion', message: 'test "x" asserts on a constant: expect(true).toBe(true)' };
const placeholder = { check: 'placeholder', message: 'throws "not implemented" in test "x"' };

describe('the drop decision: every drop cites what the runner said', () => {
  it('a static finding alone never drops a test', () => {
    for (const hint of [noAssertion, constant, placeholder]) {
      const v = decideDrop({ ...passing, hints: [hint] });
      expect(v.keep, hint.check).toBe(true);
      if (v.keep) expect(v.note).toMatch(/not confirmed by a run/);
      // Its coverage run shows it covers lines no other test does: kept.
      expect(decideDrop({ ...passing, hints: [hint], addedCoverage: true }).keep).toBe(true);
    }
  });

  it('with mutants: a test that kills one is kept whatever L0 said; one that kills none and adds no coverage checks nothing', () => {
    expect(
      decideDrop({
        ...passing,
        hints: [noAssertion],
        mutation: { killedMutants: 2, addedCoverage: false, mutants: 7 },
      }),
    ).toEqual({
      keep: true,
      note: 'kills 2 of 7 mutant(s) of the changed lines',
    });
    const none = decideDrop({
      ...passing,
      hints: [constant],
      mutation: { killedMutants: 0, addedCoverage: false, mutants: 7 },
    });
    expect(none).toMatchObject({ keep: false, kind: 'checks-nothing' });
    if (!none.keep)
      expect(none.reason).toMatch(/killed none of the 7 mutants .* and adds no coverage \(L0: .*constant/);
    expect(decideDrop({ ...passing, mutation: { killedMutants: 0, addedCoverage: true } }).keep).toBe(true);
    // An assertion L0 sees cannot fail, and no mutant made it fail: coverage added is lines run, not checked.
    const constantRun = decideDrop({
      ...passing,
      hints: [constant],
      mutation: { killedMutants: 0, addedCoverage: true, mutants: 5 },
    });
    expect(constantRun).toMatchObject({ keep: false, kind: 'checks-nothing' });
    if (!constantRun.keep)
      expect(constantRun.reason).toMatch(/killed none of the 5 mutants .*its assertion cannot fail \(L0: .*constant/);
    // An assertion L0 cannot see (a helper's) is no such evidence: a test adding coverage stays.
    expect(
      decideDrop({ ...passing, hints: [noAssertion], mutation: { killedMutants: 0, addedCoverage: true } }).keep,
    ).toBe(true);
    // Without any static finding the mutants still decide.
    expect(decideDrop({ ...passing, mutation: { killedMutants: 0, addedCoverage: false } }).keep).toBe(false);
  });

  it('without a coverage tool, a doubted test killing none of the mutants run checks nothing; an undoubted one stays', () => {
    const unmeasured = { killedMutants: 0, addedCoverage: null, mutants: 4 };
    const v = decideDrop({ ...passing, hints: [noAssertion], mutation: unmeasured });
    expect(v.keep).toBe(false);
    if (!v.keep)
      expect(v.reason).toMatch(
        /^checks nothing: it killed none of the 4 mutants of the changed lines, and no coverage tool could show .*asserts nothing/,
      );
    expect(decideDrop({ ...passing, mutation: unmeasured }).keep).toBe(true);
    // A doubted test that runs lines nothing else runs (coverage measured) is kept: the doubt is a pattern.
    expect(
      decideDrop({ ...passing, hints: [noAssertion], mutation: { ...unmeasured, addedCoverage: true } }).keep,
    ).toBe(true);
  });

  it('without mutants: a finding its own coverage run agrees with (nothing added) drops it, naming both', () => {
    const v = decideDrop({ ...passing, hints: [noAssertion], addedCoverage: false });
    expect(v).toMatchObject({ keep: false, kind: 'checks-nothing' });
    if (!v.keep) expect(v.reason).toMatch(/coverage run adds no line or branch.*\(L0: test "x" asserts nothing\)/);
    // Adding nothing, but no finding: a test pinning other values of covered code is no known copy here.
    expect(decideDrop({ ...passing, addedCoverage: false }).keep).toBe(true);
  });

  it('flaky, skipped, not collected, and a placeholder that fails every run are dropped by their runs', () => {
    expect(decideDrop({ ...passing, statuses: ['passed', 'failed', 'passed', 'failed', 'passed'] })).toMatchObject({
      keep: false,
      kind: 'flaky',
      reason: 'flaky: passed 3 of 5 runs (the same result 5 runs in a row is required)',
    });
    expect(decideDrop({ ...passing, statuses: ['passed', 'passed'] })).toMatchObject({ keep: false, kind: 'flaky' });
    expect(decideDrop({ ...passing, statuses: Array(5).fill('skipped') })).toMatchObject({
      keep: false,
      kind: 'skipped',
    });
    expect(decideDrop({ ...passing, collected: false })).toMatchObject({ keep: false, kind: 'not-collected' });
    const failing = { ...passing, statuses: Array(5).fill('failed'), message: 'Error: not implemented\n    at x' };
    expect(decideDrop({ ...failing, hints: [placeholder] })).toMatchObject({
      keep: false,
      kind: 'placeholder',
      reason: expect.stringMatching(
        /fails all 5 runs \(Error: not implemented\) and L0 found throws "not implemented"/,
      ),
    });
    // Failing every run without a placeholder: it may have found a bug; the fix loop gets it.
    expect(decideDrop(failing)).toMatchObject({ keep: true, note: expect.stringMatching(/kept for the fix loop/) });
  });
});

describe('a test the runner itself fails for running no assertion', () => {
  it("is dropped as checking nothing, citing the runner's words; any other failure every run stays for the fix loop", () => {
    const failing: TestEvidence = {
      collected: true,
      statuses: Array(5).fill('failed'),
      runs: 5,
      message: 'Test finished without running any assertions',
      hints: [noAssertion],
    };
    const v = decideDrop(failing);
    expect(v.keep).toBe(false);
    if (!v.keep) {
      expect(v.kind).toBe('checks-nothing');
      expect(v.reason).toMatch(
        /checks nothing: the runner failed it in all 5 runs for running no assertion[^]*asserts nothing/,
      );
    }
    expect(decideDrop({ ...failing, message: 'AssertionError: 1 !== 2' }).keep).toBe(true);
  });
});
