import { afterEach, describe, expect, it } from 'vitest';
import { OutputPane } from '../../src/components/output-pane.js';
import { createFixcycleStore } from '../../src/state/store.js';
import { hasColor, overflowing, rawLine, renderTui } from '../tui/render.js';
import { SIZES } from './sizes.js';

let unmount: (() => void) | undefined;
afterEach(() => unmount?.());

function storeWith(lines: string[]) {
  const store = createFixcycleStore({ flushMs: 1 });
  store.getState().apply({ type: 'output-reset', label: 're-test' });
  store.getState().apply({ type: 'output', lines });
  return store;
}

const numbered = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`);

function show(
  lines: string[],
  options: { columns?: number; height?: number; ui?: object; env?: NodeJS.ProcessEnv } = {},
) {
  const columns = options.columns ?? 120;
  const view = renderTui(<OutputPane width={columns} height={options.height ?? 10} focused />, {
    columns,
    rows: 40,
    store: storeWith(lines),
    ui: options.ui,
    env: options.env,
  });
  unmount = view.unmount;
  return view;
}

describe('OutputPane', () => {
  it('follows the tail: only the newest lines that fit are drawn', async () => {
    const view = show(numbered(100));
    const text = await view.waitFor('line 100');
    expect(text).toContain('▸ Output · re-test · following');
    expect(text).toContain('line 91');
    expect(text).not.toContain('line 90\n');
    expect(view.lines()).toHaveLength(11);
  });

  it('keeps following as new lines arrive', async () => {
    const view = show(numbered(20));
    await view.waitFor('line 20');
    view.store.getState().apply({ type: 'output', lines: ['line 21', 'line 22'] });
    const text = await view.waitFor('line 22');
    expect(text).not.toContain('line 12\n');
  });

  it('holds still where the user scrolled, and says where', async () => {
    const view = show(numbered(100), { ui: { follow: false, outputTop: 21 } });
    const text = await view.waitFor('line 22');
    expect(text).toContain('held at 22-31 of 101 (f follows)');
    view.store.getState().apply({ type: 'output', lines: ['line 101'] });
    expect(await view.waitFor('of 102')).toContain('held at 22-31 of 102');
  });

  it('highlights lines that report a failure', async () => {
    const view = show(['ok 1 - adds', 'not ok 2 - formats a price', '  AssertionError: expected 1 to equal 2']);
    await view.waitFor('not ok 2');
    const frame = view.lastFrame();
    expect(rawLine(frame, 'not ok 2 - formats a price')).toContain('\x1b[31m');
    expect(rawLine(frame, 'ok 1 - adds')).not.toContain('\x1b[31m');
  });

  it('draws no color at all under NO_COLOR, the runner’s included', async () => {
    const view = show(['\x1b[32m✔ adds\x1b[39m', 'not ok 2 - fails'], { env: { NO_COLOR: '1' } });
    await view.waitFor('✔ adds');
    expect(hasColor(view.lastFrame())).toBe(false);
  });

  it('cuts long lines and drops escape sequences that would tear the screen', async () => {
    const view = show(
      ['x'.repeat(10_000), 'before\x1b[2J\x1b[1;1Hafter\x1b]0;title\x07!', 'a\tb', 'progress 10%\rprogress 100%'],
      { columns: 60 },
    );
    const text = await view.waitFor('progress 100%');
    expect(text).toContain('beforeafter!');
    expect(text).toContain('a       b');
    expect(text).not.toContain('progress 10%');
    expect(overflowing(text, 60)).toEqual([]);
  });

  it('says when there is no output yet', () => {
    const view = renderTui(<OutputPane width={60} height={5} />, { columns: 60, rows: 20 });
    unmount = view.unmount;
    expect(view.text()).toContain('Output · no output yet');
  });

  for (const size of SIZES) {
    it(`fills exactly its rows at ${size.name}`, async () => {
      const view = show(numbered(500), { columns: size.columns, height: size.rows - 9 });
      await view.waitFor('line 500');
      expect(view.lines()).toHaveLength(size.rows - 8);
      expect(overflowing(view.text(), size.columns)).toEqual([]);
    });
  }
});
