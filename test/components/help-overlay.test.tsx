import { afterEach, describe, expect, it } from 'vitest';
import { HelpOverlay } from '../../src/components/help-overlay.js';
import { KEY_BINDINGS } from '../../src/tui/key-bindings.js';
import { overflowing, renderTui } from '../tui/render.js';
import { SIZES } from './sizes.js';

let unmount: (() => void) | undefined;
afterEach(() => unmount?.());

describe('HelpOverlay', () => {
  it('lists every key of the key table with what it does in fixcycle team', () => {
    const view = renderTui(<HelpOverlay width={120} height={38} />, { columns: 120, rows: 40, title: 'fixcycle team' });
    unmount = view.unmount;
    const text = view.text();
    for (const binding of KEY_BINDINGS) expect(text).toContain(`${binding.label.padEnd(11)}${binding.description}`);
    expect(text).toContain('○ pending');
    expect(text).toContain('[surgical]');
  });

  it('lists only the keys that act here: no team keys outside fixcycle team', () => {
    const view = renderTui(<HelpOverlay width={120} height={38} />, { columns: 120, rows: 40 });
    unmount = view.unmount;
    expect(view.text()).toContain('approve the partial success');
    expect(view.text()).not.toContain('team, before it starts');
  });

  it('scrolls when the screen is short, and says so', () => {
    const view = renderTui(<HelpOverlay width={60} height={17} />, {
      columns: 60,
      rows: 20,
      ui: { help: true, helpTop: 3 },
    });
    unmount = view.unmount;
    expect(view.text()).toMatch(/Keys · 4-19 of \d+ · j\/k scroll · esc closes/);
    expect(view.lines()).toHaveLength(17);
  });

  for (const size of SIZES) {
    it(`never draws wider than the terminal at ${size.name}`, () => {
      const view = renderTui(<HelpOverlay width={size.columns} height={size.rows - 3} />, {
        columns: size.columns,
        rows: size.rows,
      });
      unmount = view.unmount;
      expect(overflowing(view.text(), size.columns)).toEqual([]);
    });
  }
});
