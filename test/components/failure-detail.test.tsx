import { afterEach, describe, expect, it, vi } from 'vitest';
import { App } from '../../src/app.js';
import type { Localization } from '../../src/engine/localize/types.js';
import { functionsOf } from '../../src/engine/localize/functions.js';
import { rankFunctions, scoreLines, type RankInput } from '../../src/engine/localize/rank.js';
import { sourceFrames } from '../../src/engine/localize/stack-frames.js';
import type { Failure } from '../../src/engine/types.js';
import { createFixcycleStore } from '../../src/state/store.js';
import { KEYS, overflowing, renderTui } from '../tui/render.js';
import { RecordingControls } from '../tui/recording-controls.js';
import { failure, results } from '../tui/scenarios.js';
import { NARROW_SIZES } from './sizes.js';

let unmount: (() => void) | undefined;
afterEach(() => unmount?.());

const ROOT = '/work/shop';
const SOURCES: Record<string, string> = {
  'src/money.js': [
    'export function toCents(amount) {',
    '  return Math.floor(amount * 100);',
    '}',
    '',
    'export function format(cents) {',
    '  return `${toCents(cents / 100)}`;',
    '}',
    '',
  ].join('\n'),
  'src/catalogue/pagination/windows/page-window-of-items.js': [
    'export function pageWindow(items, page) {',
    '  const size = items.length / 0;',
    '  return items.slice(page * size, size);',
    '}',
    '',
  ].join('\n'),
};
const BASE = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678';

// Failures as node --test reports them: the message, then the stack through the project's code.
const withStack = (f: Failure, frames: string[]): Failure => ({
  ...f,
  stack: frames.map((at) => `    at ${at}`).join('\n'),
});
const FAILURES = [
  withStack(failure('formats a price with cents', 'AssertionError: expected 1999 to equal 2000\n\n1999 !== 2000\n'), [
    'toCents (file:///work/shop/src/money.js:2:15)',
    'TestContext.<anonymous> (file:///work/shop/test/app.test.js:5:3)',
  ]),
  // The same assertion failing in a second test: the same message, so one group.
  withStack(failure('formats euros', 'AssertionError: expected 1999 to equal 2000\n\n1999 !== 2000\n'), [
    'toCents (file:///work/shop/src/money.js:2:15)',
    'format (file:///work/shop/src/money.js:6:12)',
    'TestContext.<anonymous> (file:///work/shop/test/app.test.js:9:3)',
  ]),
  withStack(failure('paginates', 'TypeError: Cannot read properties of undefined (reading "length")', 'high'), [
    'pageWindow (file:///work/shop/src/catalogue/pagination/windows/page-window-of-items.js:3:16)',
    'TestContext.<anonymous> (file:///work/shop/test/app.test.js:14:3)',
  ]),
];

/** The suspects the engine's own ranking gives these failures: their stacks, and toCents' line changed since BASE. */
async function localization(): Promise<Localization> {
  const functions = new Map(
    await Promise.all(
      Object.entries(SOURCES).map(async ([file, text]) => [file, await functionsOf(file, text)] as const),
    ),
  );
  const input: RankInput = {
    spectrum: null,
    frames: sourceFrames(FAILURES, ROOT),
    changed: new Map([['src/money.js', new Set([2])]]),
    changeBase: BASE,
    functions,
  };
  return {
    suspects: rankFunctions(input, scoreLines(input)),
    used: ['stack', 'change'],
    notes: ['coverage: not measured (turned off)'],
    changeBase: BASE,
    durationMs: 1400,
  };
}

async function shop(withSuspects = true) {
  const store = createFixcycleStore({ flushMs: 1 });
  store.getState().apply({
    type: 'session',
    sessionId: 'WFS-test-shop',
    sessionDir: `${ROOT}/.workflow/active/WFS-test-shop`,
    repo: ROOT,
    chain: ['claude'],
    testCommand: 'node --test',
    resumed: false,
  });
  store.getState().apply({ type: 'results', iteration: 1, results: results(92.5, FAILURES) });
  if (withSuspects) store.getState().apply({ type: 'suspects', iteration: 1, localization: await localization() });
  return store;
}

async function app(
  store: ReturnType<typeof createFixcycleStore>,
  size: { columns: number; rows: number } = { columns: 120, rows: 40 },
) {
  const view = renderTui(<App onQuit={vi.fn()} />, { ...size, store, controls: new RecordingControls() });
  unmount = view.unmount;
  await view.press(KEYS.shiftTab);
  return { ...view, status: () => view.lines().at(-1) ?? '' };
}

describe('the latest failures (v)', () => {
  it('shows every failure whole, message and stack, scrolls to the last line, and v or esc closes it', async () => {
    const store = await shop(false);
    const long = Array.from({ length: 30 }, (_, i) => `    detail line ${i + 1} of the diff`).join('\n');
    const big = withStack(
      failure('renders the receipt', `AssertionError: receipts differ\n${long}\n    end of the message`),
      ['render (file:///work/shop/src/receipt.js:9:3)'],
    );
    store.getState().apply({ type: 'results', iteration: 1, results: results(90, [...FAILURES, big]) });
    const t = await app(store, { columns: 80, rows: 24 });
    await t.press('v');
    let text = await t.waitFor('Latest failures · 4');
    expect(text).toContain('1/4 high · paginates');
    expect(text).toContain('TypeError: Cannot read properties of undefined (reading "length")');
    expect(text).toContain('at pageWindow (file:///work/shop/src/catalogue/pagination/');
    expect(text).not.toMatch(/more lines/);
    for (let i = 0; i < 6; i++) await t.press(KEYS.pageDown);
    text = t.text();
    expect(text).toContain('end of the message');
    expect(text).toContain('at render (file:///work/shop/src/receipt.js:9:3)');
    await t.press('v');
    expect(await t.waitFor((s) => !s.includes('Latest failures'))).toContain('Failures');
    await t.press('v');
    await t.waitFor('Latest failures · 4');
    await t.press(KEYS.escape);
    await t.waitFor((s) => !s.includes('Latest failures'));
  });

  it('says there are none when the latest run passed', async () => {
    const store = await shop(false);
    store.getState().apply({ type: 'results', iteration: 2, results: results(100, []) });
    const t = await app(store);
    await t.press('v');
    expect(await t.waitFor('Latest failures · none')).toContain('No failures in the latest run.');
  });
});

describe('the failure group view', () => {
  it('enter on a failure group shows its tests and message, the suspects in its stacks with their evidence, and the evidence used or not', async () => {
    const t = await app(await shop());
    expect(t.status()).toContain('enter suspects · p pause · ↑/k select');
    // The cursor starts on the most critical group: paginates.
    await t.press(KEYS.enter);
    let text = await t.waitFor('Failure group 1 of 2');
    expect(text).toContain('high · 1 failing test');
    expect(text).toContain('TypeError: Cannot read properties of undefined (reading "length")');
    expect(text).toContain('paginates · test/app.test.js');
    expect(text).toContain("1 of 3 ranked for all 3 failures of the analysis: those this group's stacks pass through");
    expect(text).toMatch(/#2 src\/catalogue\/pagination\/windows\/page-window-of-items\.js:pageWindow:1-4/);
    expect(text).toMatch(/score 0\.\d\d · stack 1/);
    expect(text).toContain('stack: line 3 in the stack of 1 failing test(s) (innermost project frame)');
    expect(text).not.toContain('toCents');
    expect(text).toContain('Evidence · iteration 1 · 1.4 s');
    expect(text).toContain('used: stack frames, the change since a1b2c3d');
    expect(text).toContain('not used: coverage: not measured (turned off)');
    expect(t.status()).toContain('esc close');

    // Enter again closes; j moves to the next group, whose view shows its own suspect.
    await t.press(KEYS.enter);
    expect(await t.waitFor('▸ Failures')).toMatch(/› high\s+1×/);
    await t.press('j');
    expect(t.text()).toMatch(/› medium\s+2×/);
    expect(t.text()).toContain('formats a price with cents · formats euros');
    await t.press(KEYS.enter);
    text = await t.waitFor('Failure group 2 of 2');
    expect(text).toContain('AssertionError: expected 1999 to equal 2000');
    expect(text).toContain('1999 !== 2000');
    expect(text).toContain('(the message of every test below; the stack of "formats a price with cents")');
    expect(text).toContain('at toCents (file:///work/shop/src/money.js:2:15)');
    expect(text).toContain('formats euros · test/app.test.js');
    expect(text).toMatch(/#1 src\/money\.js:toCents:1-3\s*$/m);
    expect(text).toMatch(/score 0\.\d\d · stack 1 · change 1/);
    expect(text).toContain('change: line 2 changed since a1b2c3d');
    expect(text).not.toContain('pageWindow');
    await t.press(KEYS.escape);
    expect(await t.waitFor('Phases')).not.toContain('Failure group');
  });

  it('says when no suspect was ranked yet, and when the group is gone after a new run', async () => {
    const store = await shop(false);
    const t = await app(store);
    await t.press(KEYS.enter);
    expect(await t.waitFor('Failure group 1 of 2')).toContain(
      'None ranked for these failures yet: fixcycle ranks them before each analysis',
    );
    store.getState().apply({ type: 'results', iteration: 2, results: results(97.5, [FAILURES[0]!]) });
    expect(await t.waitFor('no longer among the current failures')).toContain('the latest run fixed or regrouped it');
  });

  it('a group that is all the failures gets every suspect, and says so', async () => {
    const store = await shop();
    store.getState().apply({ type: 'results', iteration: 2, results: results(95, FAILURES.slice(0, 2)) });
    store.getState().apply({ type: 'suspects', iteration: 2, localization: await localization() });
    const t = await app(store);
    await t.press(KEYS.enter);
    const text = await t.waitFor('Failure group 1 of 1');
    expect(text).toContain('Ranked for all 2 failures of the analysis: this group is all of them.');
    expect(text).toContain('#1 src/money.js:toCents:1-3');
    expect(text).toContain('#2 src/catalogue/pagination/windows/page-window-of-items.js:pageWindow:1-4');
  });

  it('wraps to a 60-column pane and scrolls with j', async () => {
    const size = NARROW_SIZES[0];
    const t = await app(await shop(), size);
    expect(t.status()).toContain('│ enter suspects ·');
    await t.press(KEYS.enter);
    let text = await t.waitFor('Failure group 1 of 2');
    expect(overflowing(t.lastFrame(), size.columns)).toEqual([]);
    // The whole stack comes first, wrapped: the suspects are below it.
    expect(text).toContain('at pageWindow');
    for (let i = 0; i < 8; i++) await t.press('j');
    text = t.text();
    // The long path is broken across lines, not cut: its end is still there to read.
    expect(text).toContain('#2 src/catalogue/pagination/windows/page-window-of-items');
    expect(text).toMatch(/^ *\S*:pageWindow:1-4$/m);
    expect(text).toMatch(/9-\d+ of \d+ · esc closes/);
    for (let i = 0; i < 20; i++) await t.press('j');
    text = t.text();
    expect(text).toContain('not used: coverage: not measured (turned');
    expect(overflowing(t.lastFrame(), size.columns)).toEqual([]);
  });
});
