import { describe, expect, it } from 'vitest';
import { genLine } from '../../src/engine/gen/plain-lines.js';
import { mutationEvidence, mutationReport } from '../../src/engine/gen/mutation/mutation-report.js';
import type { MutantOutcome } from '../../src/engine/gen/mutation/run-mutants.js';

const outcome = (line: number, over: Partial<MutantOutcome>): MutantOutcome => ({
  id: `src/calc.js:${line}:1`,
  file: 'src/calc.js',
  line,
  operator: 'comparison',
  description: '< -> >=',
  status: 'survived',
  killedBy: [],
  existingKilledBy: [],
  ...over,
});

describe('the mutation figures per module', () => {
  it('counts made, run, killed by the kept tests and by them alone, hangs, unviable and unreached mutants', () => {
    const outcomes = [
      outcome(2, { status: 'killed', killedBy: ['new::a'], existingKilledBy: [] }),
      outcome(3, { status: 'killed', killedBy: ['new::a'], existingKilledBy: ['old::x'] }),
      outcome(4, { status: 'killed', killedBy: ['new::dropped'], existingKilledBy: [] }),
      outcome(5, { status: 'timeout', existingKilledBy: null }),
      outcome(6, { status: 'unviable', existingKilledBy: null }),
      outcome(7, { status: 'unreached', existingKilledBy: null }),
    ];
    const report = mutationReport(new Map([['src/calc.js', 8]]), outcomes, new Set(['new::a']));
    expect(report.modules).toEqual([
      {
        file: 'src/calc.js',
        made: 8,
        run: 5,
        unreached: 1,
        killedByKept: 2,
        killedByKeptOnly: 1,
        timeouts: 1,
        unviable: 1,
      },
    ]);
    const line = genLine({ type: 'gen-mutation', modules: report.modules });
    expect(line).toBe(
      "[mutants] src/calc.js: 8 mutant(s) made, 5 run, 2 killed by the kept tests, 1 of them by no existing test; 1 on lines no new test runs (not run), 2 not run (the gate's budget), 1 hung (counted killed), 1 did not build or load (not counted)",
    );
  });

  it('says when no existing test ran against the killed mutants, and why nothing ran', () => {
    const report = mutationReport(
      new Map([['calc.py', 2]]),
      [outcome(1, { file: 'calc.py', status: 'killed', killedBy: ['t'], existingKilledBy: null })],
      new Set(['t']),
    );
    expect(report.modules[0]!.killedByKeptOnly).toBeNull();
    expect(genLine({ type: 'gen-mutation', modules: report.modules })).toMatch(/no existing test was run against them/);
    expect(genLine({ type: 'gen-mutation', modules: [], note: 'no new test passing every run to judge' })).toBe(
      '[mutants] no new test passing every run to judge',
    );
  });
});

describe("a test's mutant evidence", () => {
  it('counts a run made for some tests only (the doubted ones, on their own lines) for those tests alone', () => {
    const outcomes = [
      outcome(2, { status: 'survived' }),
      outcome(9, {
        status: 'killed',
        killedBy: ['new::helper'],
        existingKilledBy: null,
        ranFor: ['new::helper', 'new::smoke'],
      }),
    ];
    expect(mutationEvidence(outcomes, 'new::helper', true)).toMatchObject({ killed: 1, ran: 2 });
    expect(mutationEvidence(outcomes, 'new::smoke', true)).toMatchObject({ killed: 0, ran: 2 });
    // A test that was not in that run met only the mutant run for all.
    expect(mutationEvidence(outcomes, 'new::real', false)).toMatchObject({ killed: 0, ran: 1 });
  });
});
