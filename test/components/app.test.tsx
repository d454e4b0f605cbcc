import { afterEach, describe, expect, it } from 'vitest';
import { App } from '../../src/app.js';
import { hasColor, overflowing, renderTui } from '../tui/render.js';
import { RecordingControls } from '../tui/recording-controls.js';
import * as scenarios from '../tui/scenarios.js';
import { NARROW_SIZES, SIZES } from './sizes.js';

let unmount: (() => void) | undefined;
afterEach(() => unmount?.());

const STATES = {
  pending: scenarios.pendingStore,
  running: scenarios.runningStore,
  regression: scenarios.regressionStore,
  stuck: scenarios.stuckStore,
  'partial success awaiting approval': scenarios.awaitingApprovalStore,
  failure: scenarios.failureStore,
  'degraded agent': scenarios.degradedStore,
};

function show(
  store: ReturnType<typeof scenarios.pendingStore>,
  columns: number,
  rows: number,
  env: NodeJS.ProcessEnv = {},
) {
  const view = renderTui(<App onQuit={() => {}} />, { columns, rows, store, controls: new RecordingControls(), env });
  unmount = view.unmount;
  return view;
}

describe('App layout', () => {
  for (const size of SIZES) {
    for (const [state, make] of Object.entries(STATES)) {
      it(`fills ${size.name} exactly, one row short of the terminal, with nothing wrapped (${state})`, () => {
        const view = show(make(), size.columns, size.rows);
        expect(view.lines()).toHaveLength(size.rows - 1);
        expect(overflowing(view.text(), size.columns)).toEqual([]);
      });
    }
  }

  for (const size of NARROW_SIZES) {
    for (const [state, make] of Object.entries(STATES)) {
      it(`keeps the strategy's name and "? help · q quit" whole at ${size.name} (${state})`, () => {
        const view = show(make(), size.columns, size.rows);
        const lines = view.lines();
        expect(lines).toHaveLength(size.rows - 1);
        expect(overflowing(view.text(), size.columns)).toEqual([]);
        expect(lines.at(-1)!.trimEnd()).toMatch(/\? help · q quit$/);
        expect(lines[0]).toMatch(/\[(conservative|aggressive|surgical|no strategy yet)\]/);
      });
    }
  }

  it('shows phases, failures, iterations, the output and the status line side by side when wide', () => {
    const text = show(scenarios.runningStore(), 120, 40).text();
    expect(text).toMatch(/Phases\s+Failures · 3 in 3 groups/);
    expect(text).toContain('Iterations · 2');
    expect(text).toContain('▸ Output · iteration 2: fix · following');
    expect(text).toContain('not ok 3 - formats a price with cents');
    expect(text.split('\n').at(-1)).toMatch(/^WFS-test-checkout · claude → codex/);
  });

  it('keeps the badge, the current iteration and the output below 80 columns', () => {
    const lines = show(scenarios.regressionStore(), 60, 20).lines();
    expect(lines[0]).toContain('[surgical]');
    expect(lines[1]).toContain('Iteration 3: Analysis (pass: 82.5%, surgical)');
    expect(lines.some((l) => l.includes('Output'))).toBe(true);
  });

  it('follows a resize live', async () => {
    const view = show(scenarios.runningStore(), 120, 40);
    expect(view.text()).toContain('Phases');
    view.resize(60, 20);
    const text = await view.waitFor((f) => !f.includes('Phases'));
    expect(text.split('\n')).toHaveLength(19);
    expect(overflowing(text, 60)).toEqual([]);
    view.resize(100, 30);
    expect((await view.waitFor('Phases')).split('\n')).toHaveLength(29);
  });

  it('draws without any color under NO_COLOR and stays readable', () => {
    const view = show(scenarios.regressionStore(), 120, 40, { NO_COLOR: '1' });
    expect(hasColor(view.lastFrame())).toBe(false);
    expect(view.text()).toContain('[surgical]');
    expect(view.text()).toContain('regression rolled back');
  });

  it('shows the approval banner above the status line', () => {
    const lines = show(scenarios.awaitingApprovalStore(), 60, 20).lines();
    // Too long for one line at 60 columns: it wraps onto a second rather than being cut.
    expect(lines.at(-4)).toContain('? Partial success awaiting approval: pass rate 96.5%, 1');
    expect(lines.at(-3)).toContain('low-criticality failure left');
    expect(lines.at(-2)).toContain('a approves and finishes · r roll back · q quit');
  });
});
