import { afterEach, describe, expect, it } from 'vitest';
import { HelpOverlay } from '../../src/components/help-overlay.js';
import { KEY_BINDINGS } from '../../src/tui/key-bindings.js';
import { overflowing, renderTui } from '../tui/render.js';
import { RecordingControls } from '../tui/recording-controls.js';
import { awaitingApprovalStore, runningStore } from '../tui/scenarios.js';
import { SIZES } from './sizes.js';

let unmount: (() => void) | undefined;
afterEach(() => unmount?.());

describe('HelpOverlay', () => {
  it('lists every key that acts in fixcycle team awaiting approval, with what it does; y/n only in a question', () => {
    const view = renderTui(<HelpOverlay width={120} height={38} />, {
      columns: 120,
      rows: 40,
      title: 'fixcycle team',
      store: awaitingApprovalStore(),
      controls: new RecordingControls(),
    });
    unmount = view.unmount;
    const text = view.text();
    for (const binding of KEY_BINDINGS)
      if (binding.command === 'yes' || binding.command === 'no') expect(text).not.toContain(binding.description);
      else expect(text).toContain(`${binding.label.padEnd(11)}${binding.description}`);
    expect(text).toContain('○ pending');
    expect(text).toContain('[surgical]');
  });

  it('lists only the keys that act here: no team keys outside fixcycle team, a only while awaiting approval', () => {
    const view = renderTui(<HelpOverlay width={120} height={38} />, {
      columns: 120,
      rows: 40,
      store: runningStore(),
      controls: new RecordingControls(),
    });
    unmount = view.unmount;
    expect(view.text()).not.toContain('team, before it starts');
    expect(view.text()).not.toContain('approve the partial success');
    expect(view.text()).toContain('roll back the last committed iteration');
    expect(view.text()).toContain('give the running loop one more iteration');
  });

  it('in watch with nothing driving the session: no loop keys at all', () => {
    const view = renderTui(<HelpOverlay width={120} height={38} />, {
      columns: 120,
      rows: 40,
      store: awaitingApprovalStore(),
      controls: null,
    });
    unmount = view.unmount;
    for (const word of ['approve the partial', 'roll back the last', 'pause after', 'one more iteration'])
      expect(view.text()).not.toContain(word);
    expect(view.text()).toContain('view every failure of the latest run');
  });

  it('scrolls when the screen is short, and says so', () => {
    const view = renderTui(<HelpOverlay width={60} height={17} />, {
      columns: 60,
      rows: 20,
      ui: { help: true, helpTop: 3 },
    });
    unmount = view.unmount;
    expect(view.text()).toMatch(/Keys · 4-19 of 19 · j\/k scroll · esc closes/);
    expect(view.text()).not.toContain('approve the partial');
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
