import { afterEach, describe, expect, it } from 'vitest';
import { IterationTable } from '../../src/components/iteration-table.js';
import { overflowing, renderTui } from '../tui/render.js';
import {
  degradedStore,
  fallbackStore,
  pendingStore,
  regressionStore,
  runningStore,
  stuckStore,
} from '../tui/scenarios.js';
import { SIZES } from './sizes.js';

let unmount: (() => void) | undefined;
afterEach(() => unmount?.());

function show(store: ReturnType<typeof pendingStore>, columns: number, rows = 6, ui = {}) {
  const view = renderTui(<IterationTable width={columns} rows={rows} compact={columns < 80} focused />, {
    columns,
    rows: 40,
    store,
    ui,
  });
  unmount = view.unmount;
  return view;
}

const row = (text: string, n: number) => text.split('\n').find((l) => new RegExp(`^[› ] ${n} `).test(l)) ?? '';

describe('IterationTable', () => {
  it('says there are no iterations yet', () => {
    expect(show(pendingStore(), 120).text()).toContain('Iterations · none yet');
  });

  it('shows number, strategy, pass rate with its change, tests, duration, agent, result and commit', () => {
    const text = show(runningStore(), 120).text();
    expect(text).toMatch(/#\s+strategy\s+pass\s+Δ\s+pass\/fail\s+time\s+agent\s+result\s+commit/);
    expect(row(text, 1)).toMatch(/1\s+conservative\s+82.5%\s+\+7.5\s+33\/7\s+1m 05s\s+claude\s+improved\s+1bd3769/);
    expect(row(text, 2)).toMatch(/2\s+conservative\s+—.*running/);
  });

  it('marks a regression that was rolled back, with the drop in points', () => {
    const text = show(regressionStore(), 120).text();
    expect(row(text, 2)).toMatch(/aggressive\s+60%\s+−22.5\s+24\/16.*regression rolled back\s+9f8e7d6/);
    expect(row(text, 3)).toMatch(/surgical/);
  });

  it('marks stuck iterations', () => {
    const text = show(stuckStore(), 120).text();
    expect(row(text, 2)).toContain('no change');
    expect(row(text, 3)).toMatch(/±0.*stuck/);
  });

  it('shows a degraded iteration and that no agent succeeded', () => {
    expect(row(show(degradedStore(), 120).text(), 2)).toMatch(/none \(2 failed\)\s+degraded/);
  });

  it('names a fallback agent', () => {
    expect(row(show(fallbackStore(), 120).text(), 2)).toContain('codex (fallback)');
  });

  it('keeps the cursor row visible when it is above the newest rows', () => {
    const text = show(regressionStore(), 120, 2, { selected: 1 }).text();
    expect(text).toContain('Iterations · 3 · 1-2');
    expect(text).toMatch(/^› 1 /m);
  });

  it('keeps pass rate, change and result when narrow', () => {
    const text = show(regressionStore(), 60).text();
    expect(row(text, 2)).toMatch(/2\s+aggr\s+60%\s+−22.5\s+regression rolled back/);
    expect(text).not.toContain('pass/fail');
  });

  for (const size of SIZES) {
    it(`never draws wider than the terminal at ${size.name}`, () => {
      expect(overflowing(show(regressionStore(), size.columns).text(), size.columns)).toEqual([]);
    });
  }
});
