import { afterEach, describe, expect, it } from 'vitest';
import { Header } from '../../src/components/header.js';
import { StrategyBadge } from '../../src/components/strategy-badge.js';
import { hasColor, overflowing, renderTui } from '../tui/render.js';
import { pendingStore, regressionStore, runningStore } from '../tui/scenarios.js';
import { NARROW_SIZES, SIZES } from './sizes.js';

let unmount: (() => void) | undefined;
afterEach(() => unmount?.());

describe('StrategyBadge', () => {
  it('shows the strategy in brackets with the reason it was chosen', () => {
    const view = renderTui(<StrategyBadge />, { columns: 120, rows: 40, store: regressionStore() });
    unmount = view.unmount;
    expect(view.text()).toBe('[surgical] iteration 2 regressed (60% < 82.5%): the narrowest fix');
  });

  it('gives each strategy its own color, and none under NO_COLOR', () => {
    const colored = renderTui(<StrategyBadge withReason={false} />, {
      columns: 120,
      rows: 40,
      store: regressionStore(),
    });
    expect(colored.lastFrame()).toContain('\x1b[35m');
    colored.unmount();
    const conservative = renderTui(<StrategyBadge withReason={false} />, {
      columns: 120,
      rows: 40,
      store: runningStore(),
    });
    expect(conservative.lastFrame()).toContain('\x1b[34m');
    conservative.unmount();
    const mono = renderTui(<StrategyBadge />, {
      columns: 120,
      rows: 40,
      store: regressionStore(),
      env: { NO_COLOR: '1' },
    });
    unmount = mono.unmount;
    expect(hasColor(mono.lastFrame())).toBe(false);
    expect(mono.text()).toContain('[surgical]');
  });

  it('says when no strategy was chosen yet', () => {
    const view = renderTui(<StrategyBadge />, { columns: 120, rows: 40, store: pendingStore() });
    unmount = view.unmount;
    expect(view.text()).toBe('[no strategy yet]');
  });
});

describe('Header', () => {
  for (const size of SIZES) {
    it(`keeps the badge in view at ${size.name}`, () => {
      const view = renderTui(<Header width={size.columns} compact={size.columns < 80} />, {
        columns: size.columns,
        rows: size.rows,
        store: regressionStore(),
        title: 'DEMO — scripted demo agent, no AI',
        demo: true,
      });
      unmount = view.unmount;
      expect(view.text()).toContain('[surgical]');
      expect(view.text()).toContain('DEMO');
      expect(overflowing(view.text(), size.columns)).toEqual([]);
    });
  }

  for (const size of NARROW_SIZES) {
    it(`shortens the strategy's reason but never its name at ${size.name}`, () => {
      const view = renderTui(<Header width={size.columns} compact />, {
        columns: size.columns,
        rows: size.rows,
        store: regressionStore(),
        title: 'DEMO — scripted demo agent, no AI',
        demo: true,
      });
      unmount = view.unmount;
      // Shortened at a word with …, never cut mid-word by the terminal.
      expect(view.text()).toMatch(/\[surgical\] iteration 2( \S+)*…$/);
      expect(overflowing(view.text(), size.columns)).toEqual([]);
    });
  }

  it('keeps the whole strategy name even when a long session id crowds a wide header', () => {
    const store = regressionStore();
    store.getState().apply({
      type: 'session',
      sessionId: 'WFS-test-a-very-long-session-name-that-goes-on-and-on-forever',
      sessionDir: '/tmp/x',
      repo: '/tmp',
      chain: ['claude'],
      testCommand: 'npm test',
      resumed: false,
    });
    const view = renderTui(<Header width={80} compact={false} />, { columns: 80, rows: 24, store, title: 'fixcycle' });
    unmount = view.unmount;
    expect(view.text()).toContain('[surgical]');
    expect(overflowing(view.text(), 80)).toEqual([]);
  });

  it("shortens the demo's long reason with … at a word, and keeps a space between a shortened id and the badge", () => {
    const store = regressionStore();
    store.getState().apply({
      type: 'session',
      sessionId: 'WFS-test-demo',
      sessionDir: '/tmp/x',
      repo: '/tmp',
      chain: ['demo-agent'],
      testCommand: 'node --test',
      resumed: false,
    });
    store.getState().apply({
      type: 'strategy',
      iteration: 3,
      strategy: 'aggressive',
      reason: 'pass rate 92.68% > 80% and failures alike (similarity 1 > 0.7): one fix for the common cause',
    });
    const view = renderTui(<Header width={120} compact={false} />, {
      columns: 120,
      rows: 40,
      store,
      title: 'DEMO — scripted demo agent, no AI',
    });
    unmount = view.unmount;
    const line = view.lines()[0]!;
    expect(line).toMatch(/ WFS-test-de… +\[aggressive\] pass rate 92\.68% > 80% and failures alike \(similarity 1 >…$/);
    expect(line.length).toBeLessThanOrEqual(120);
  });

  it('labels a demo and shows the session id when wide', () => {
    const view = renderTui(<Header width={120} compact={false} />, {
      columns: 120,
      rows: 40,
      store: runningStore(),
      demo: true,
    });
    unmount = view.unmount;
    expect(view.text()).toMatch(/^fixcycle DEMO +WFS-test-checkout +\[conservative\]/);
  });
});
