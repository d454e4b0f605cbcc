import { afterEach, describe, expect, it } from 'vitest';
import { FailuresView } from '../../src/components/failures-view.js';
import { createFixcycleStore } from '../../src/state/store.js';
import { overflowing, renderTui } from '../tui/render.js';
import { awaitingApprovalStore, failure, pendingStore, results, runningStore, stuckStore } from '../tui/scenarios.js';
import { SIZES } from './sizes.js';

let unmount: (() => void) | undefined;
afterEach(() => unmount?.());

function show(store: ReturnType<typeof pendingStore>, columns = 120, height = 8, ui = {}) {
  const view = renderTui(<FailuresView width={columns} height={height} focused />, { columns, rows: 40, store, ui });
  unmount = view.unmount;
  return view;
}

describe('FailuresView', () => {
  it('puts the most critical first, one group per distinct message', () => {
    const lines = show(runningStore()).lines();
    expect(lines[0]).toContain('Failures · 3 in 3 groups');
    expect(lines[1]).toMatch(/^› high\s+1×\s+TypeError: Cannot read properties of undefined/);
    expect(lines[2]).toContain('paginates');
    expect(lines[3]).toMatch(/^ {2}medium\s+1×\s+AssertionError: expected 1999 to equal 2000/);
    expect(lines[4]).toContain('formats a price with cents');
  });

  it('groups only the same message with the same criticality, and a count of 10 keeps its space', () => {
    const store = createFixcycleStore();
    // node's assert: the first line is the same for every strictEqual; what differs is on the lines after it.
    const strict = (actual: string) =>
      `AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:\n\n${actual} !== 5\n`;
    const same = Array.from({ length: 10 }, (_, i) => failure(`total ${i}`, strict('6')));
    store.getState().apply({
      type: 'results',
      iteration: 1,
      results: results(50, [...same, failure('other total', strict('7')), failure('low total', strict('6'), 'low')]),
    });
    const lines = show(store, 120, 8).lines();
    expect(lines[0]).toContain('12 in 3 groups');
    expect(lines[1]).toMatch(
      /^› medium 10× AssertionError \[ERR_ASSERTION\]: Expected values to be strictly equal: 6 !== 5$/,
    );
    // The counts end in one column: `10×` and ` 1×`.
    expect(lines[3]).toMatch(/^ {2}medium {2}1× AssertionError .*: 7 !== 5$/);
    expect(lines[5]).toMatch(/^ {2}low {5}1× AssertionError .*: 6 !== 5$/);
  });

  it('lists the suspects ranked for the failures, with the evidence of each, until the next results', () => {
    const store = runningStore();
    const suspect = (fn: string, start: number, score: number, scores: Record<string, number>) => ({
      file: 'src/money.js',
      function: fn,
      startLine: start,
      endLine: start + 4,
      score,
      lines: [start + 1],
      scores,
      evidence: [],
    });
    store.getState().apply({
      type: 'suspects',
      iteration: 1,
      localization: {
        suspects: [suspect('toCents', 3, 0.7, { change: 1, coverage: 1 }), suspect('format', 12, 0.2, { coverage: 1 })],
        used: ['change', 'coverage'],
        notes: [],
        durationMs: 10,
      },
    });
    const text = show(store, 120, 12).text();
    expect(text).toMatch(/suspects\s+1\. src\/money\.js:toCents:3-7\s+0\.70 change\+coverage/);
    expect(text).toMatch(/2\. src\/money\.js:format:12-16\s+0\.20 coverage/);
    store
      .getState()
      .apply({ type: 'results', iteration: 1, results: results(0, [failure('adds', 'AssertionError: nope')]) });
    expect(show(store, 120, 12).text()).not.toContain('suspects');
  });

  it('marks the selected group with › only while focused', () => {
    const focused = show(runningStore(), 120, 8, { failureGroup: 1 });
    expect(focused.lines()[3]).toMatch(/^› medium\s+1×/);
    focused.unmount();
    const view = renderTui(<FailuresView width={120} height={8} />, { columns: 120, rows: 40, store: runningStore() });
    unmount = view.unmount;
    expect(view.lines()[1]).toMatch(/^high\s+1×/);
  });

  it('marks stuck tests', () => {
    const text = show(stuckStore()).text();
    expect(text).toContain('rounds half up (stuck)');
    expect(text).toContain('rounds negatives (stuck)');
  });

  it('shows the low-criticality failures awaiting approval', () => {
    expect(show(awaitingApprovalStore()).text()).toMatch(/low\s+1×\s+AssertionError: expected "Save"/);
  });

  it('lists run errors before any test failure', () => {
    const store = createFixcycleStore();
    store.getState().apply({
      type: 'results',
      iteration: 1,
      results: {
        ...results(0, [failure('adds', 'AssertionError: nope')]),
        errors: [{ message: "SyntaxError: Unexpected token '}'", file: 'src/money.js' }],
      },
    });
    const lines = show(store).lines();
    expect(lines[0]).toContain('1 in 1 group, 1 run error');
    expect(lines[1]).toMatch(/^ {2}error\s+SyntaxError: Unexpected token/);
    expect(lines[2]).toContain('src/money.js');
  });

  it('scrolls when the groups do not fit, and says which lines show', () => {
    const store = createFixcycleStore();
    const many = Array.from({ length: 8 }, (_, i) =>
      failure(
        `case ${i}`,
        [
          'TypeError: x is not a function',
          'RangeError: Invalid array length',
          'timeout of 2000ms exceeded',
          'ENOENT: no such file',
        ][i % 4]!,
        i % 2 ? 'high' : 'low',
      ),
    );
    store.getState().apply({ type: 'results', iteration: 1, results: results(80, many) });
    const text = show(store, 120, 4, { failuresTop: 2 }).text();
    expect(text).toContain('3-6 of 8 lines');
  });

  it('says when there are none', () => {
    expect(show(pendingStore()).text()).toContain('Failures · none');
  });

  for (const size of SIZES) {
    it(`never draws wider than the terminal at ${size.name}`, () => {
      expect(overflowing(show(runningStore(), size.columns).text(), size.columns)).toEqual([]);
    });
  }
});
