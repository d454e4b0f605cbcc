// `npm run corpus -- --localize-compare` flags a project where localization slows the loop by more than 1.5x
// or changes its outcome; the bench's two figures come from the same rows.
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

interface Side {
  exit: number | null;
  outcome: string | null;
  passRate: number | null;
  iterations: number;
  seconds: number;
}
interface Row {
  name: string;
  on?: Side;
  off?: Side;
  ratio?: number;
  skipped?: string;
}
const load = async <T>(path: string) =>
  (await import(pathToFileURL(fileURLToPath(new URL(path, import.meta.url))).href)) as T;
const { flagsOf, compareMetrics } = await load<{
  flagsOf(row: Row): string[];
  compareMetrics(rows: Row[]): Record<string, number>;
}>('../../scripts/corpus/localize-compare.mjs');
const { summariseRun } = await load<{ summariseRun(events: object[]): { iterations: number; localizeMs: number } }>(
  '../../scripts/corpus/events.mjs',
);

const side = (over: Partial<Side> = {}): Side => ({
  exit: 0,
  outcome: 'success',
  passRate: 100,
  iterations: 1,
  seconds: 10,
  ...over,
});
const row = (name: string, on: Side, off: Side): Row => ({ name, on, off, ratio: on.seconds / off.seconds });

describe('the localization on/off comparison', () => {
  it('flags a loop slower by more than 1.5x, and only then', () => {
    expect(flagsOf(row('a', side({ seconds: 15 }), side()))).toEqual([]);
    expect(flagsOf(row('b', side({ seconds: 15.1 }), side()))).toEqual(['slower x1.51']);
  });

  it('flags another exit, pass rate or iteration count as another outcome', () => {
    expect(flagsOf(row('a', side({ iterations: 2 }), side()))).toEqual(['outcome differs']);
    expect(flagsOf(row('b', side({ exit: 1, outcome: 'failure', passRate: 90 }), side()))).toEqual(['outcome differs']);
  });

  it('gives the worst ratio and the count of changed outcomes over the compared projects, skipped ones left out', () => {
    const rows = [
      row('a', side({ seconds: 12 }), side()),
      row('b', side({ iterations: 3 }), side()),
      { name: 'c', skipped: 'cargo --version does not run here' },
    ];
    expect(compareMetrics(rows)).toEqual({
      localization_loop_ratio_max: 1.2,
      localization_outcome_changes: 1,
      localization_loop_projects: 2,
    });
    expect(compareMetrics([{ name: 'c', skipped: 'x' }])).toEqual({});
  });

  it("reads a run's iterations and localization time from fixcycle's events", () => {
    const events = [
      { type: 'results', iteration: 0, results: { scope: 'full' } },
      { type: 'suspects', iteration: 1, localization: { durationMs: 400, suspects: [] } },
      { type: 'results', iteration: 1, results: { scope: 'affected' } },
      { type: 'suspects', iteration: 2, localization: { durationMs: 600, suspects: [] } },
      { type: 'results', iteration: 2, results: { scope: 'full' } },
      // An iteration whose fix changed no file runs no tests.
      { type: 'agent', iteration: 3, role: 'fix', status: 'finished', classification: 'ok' },
    ];
    expect(summariseRun(events)).toMatchObject({ iterations: 3, localizeMs: 1000 });
  });
});
