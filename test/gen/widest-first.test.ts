import { describe, expect, it } from 'vitest';
import { widestFirst } from '../../src/engine/gen/widest-first.js';

const keys = (...lines: number[]) => new Set(lines.map((l) => `src/m.js:${l}`));

describe('doubted tests against each other, widest first', () => {
  it('counts a test running only lines a wider doubted test runs as adding nothing, in any order', () => {
    const real = { t: 'real', mine: keys(1, 2, 3, 4, 5) };
    const logs = { t: 'logs its result', mine: keys(2, 3) };
    for (const order of [
      [logs, real],
      [real, logs],
    ])
      expect(Object.fromEntries(widestFirst(order, keys(1)).map((v) => [v.t, v.addedCoverage]))).toEqual({
        real: true,
        'logs its result': false,
      });
  });

  it('keeps each of two tests that run lines of their own, and none that runs only what the suite runs', () => {
    const verdicts = widestFirst(
      [
        { t: 'a', mine: keys(1, 2) },
        { t: 'b', mine: keys(2, 3) },
        { t: 'suite only', mine: keys(9) },
      ],
      keys(9),
    );
    expect(verdicts.map((v) => v.addedCoverage)).toEqual([true, true, false]);
  });

  it('of two tests running the same lines, counts the first as the wider one', () => {
    const verdicts = widestFirst(
      [
        { t: 'first', mine: keys(1, 2) },
        { t: 'second', mine: keys(1, 2) },
      ],
      new Set(),
    );
    expect(verdicts.map((v) => v.addedCoverage)).toEqual([true, false]);
  });
});
