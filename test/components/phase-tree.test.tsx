import { afterEach, describe, expect, it } from 'vitest';
import { PhaseTree } from '../../src/components/phase-tree.js';
import { overflowing, renderTui } from '../tui/render.js';
import {
  awaitingApprovalStore,
  degradedStore,
  fallbackStore,
  failureStore,
  pendingStore,
  regressionStore,
  runningStore,
} from '../tui/scenarios.js';
import { SIZES } from './sizes.js';

let unmount: (() => void) | undefined;
afterEach(() => unmount?.());

function show(store: ReturnType<typeof pendingStore>, columns: number, rows: number, compact = columns < 80) {
  const view = renderTui(<PhaseTree width={compact ? columns : 72} compact={compact} />, { columns, rows, store });
  unmount = view.unmount;
  return view;
}

describe('PhaseTree', () => {
  it('shows every phase pending before anything ran', () => {
    const text = show(pendingStore(), 120, 40).text();
    expect(text).toContain('○ Test run');
    expect(text).toContain('Fix cycle: waits for the first test run');
    expect(text).toContain('○ Final validation');
    expect(text).toContain('○ Completion');
  });

  it('nests the running iteration as the design tracks it, with its steps and agent', () => {
    const text = show(runningStore(), 120, 40).text();
    expect(text).toContain('✓ Test run pass 75% (30/40)');
    // One spinner ticks, the step's: the iteration above it has a still mark.
    expect(text).toMatch(/▸ Iteration 2: Fix \(pass: 82.5%, conservative\)/);
    expect(text).toMatch(/^ {4}✓ Analysis/m);
    expect(text).toMatch(/^ {4}[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Fix claude/m);
    expect(text).toMatch(/^ {4}○ Re-test/m);
  });

  it('shows the surgical iteration after a regression', () => {
    expect(show(regressionStore(), 120, 40).text()).toContain('Iteration 3: Analysis (pass: 82.5%, surgical)');
  });

  it('says which agents failed and how when the iteration is degraded', () => {
    const text = show(degradedStore(), 120, 40).text();
    expect(text).toContain('✗ Iteration 2: Analysis failed');
    expect(text).toContain('✗ Analysis no usable plan (degraded) · claude: rate limited → codex');
  });

  it('names the fallback agent and why the first one was skipped', () => {
    expect(show(fallbackStore(), 120, 40).text()).toContain('Analysis codex (fallback after claude: rate limited)');
  });

  it('holds still while awaiting approval or paused: a mark, not a spinner', () => {
    expect(show(awaitingApprovalStore(), 120, 40).text()).toContain('? Completion awaiting approval');
    const store = runningStore();
    store.getState().apply({ type: 'paused', paused: true });
    const text = show(store, 120, 40).text();
    expect(text).toMatch(/^‖ Iteration 2: Fix, paused \(pass: 82.5%, conservative\)/m);
    expect(text).toMatch(/^ {4}‖ Fix claude/m);
  });

  it('marks a failed completion', () => {
    expect(show(failureStore(), 120, 40).text()).toContain('✗ Completion');
  });

  it('folds into the current iteration and a line of step marks when narrow', () => {
    const view = show(runningStore(), 60, 20);
    const lines = view.lines();
    expect(lines[0]).toMatch(/Iteration 2: Fix \(pass: 82.5%, conservative\)/);
    expect(lines[1]).toMatch(/✓test ✓analysis [⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]fix ○re-test ○validation ○done/);
    expect(lines).toHaveLength(2);
  });

  for (const size of SIZES) {
    it(`never draws wider than the terminal at ${size.name}`, () => {
      const view = show(degradedStore(), size.columns, size.rows);
      expect(overflowing(view.text(), size.columns)).toEqual([]);
    });
  }
});
