// Every question and banner that asks for a key keeps each key visible at 60 and 40 columns: words shorten first,
// long questions wrap onto a second line rather than being cut.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { App } from '../../src/app.js';
import { fitChoices, fitQuestion, wrapWords } from '../../src/tui/question-lines.js';
import { overflowing, renderTui } from './render.js';
import { RecordingControls } from './recording-controls.js';
import { awaitingApprovalStore, runningStore } from './scenarios.js';

let unmount: (() => void) | undefined;
afterEach(() => unmount?.());

class PaneControls extends RecordingControls {
  readonly remote = true;
}

function app(store: ReturnType<typeof runningStore>, columns: number, controls = new RecordingControls()) {
  const view = renderTui(<App onQuit={vi.fn()} />, { columns, rows: 24, store, controls });
  unmount = view.unmount;
  return view;
}

/** The rows of the frame from the one starting with `first` down to (not including) the status line. */
function bannerRows(lines: string[], first: string): string[] {
  const at = lines.findIndex((l) => l.includes(first));
  expect(at, `a row starting the banner with ${first}`).toBeGreaterThanOrEqual(0);
  return lines.slice(at, -1);
}

const CASES = [
  {
    name: 'the approval banner',
    store: awaitingApprovalStore,
    keys: '',
    remote: false,
    first: '? Partial',
    expect: [/\ba\b.*·.*\br\b.*·.*\bq\b/],
  },
  {
    name: 'the quit question of run (q or Ctrl-C)',
    store: runningStore,
    keys: '\x03',
    remote: false,
    first: 'Stop the loop now',
    expect: [/\by\b.*·.*\bn\b/],
  },
  {
    name: "the pane's quit question",
    store: runningStore,
    keys: 'q',
    remote: true,
    first: 'Stop the run now',
    expect: [/\by\b.*·.*\bn\b.*·.*\besc\b/],
  },
  {
    name: 'the rollback question',
    store: runningStore,
    keys: 'r',
    remote: false,
    first: 'Roll back iteration 1',
    expect: [/\by\b.*·.*\bn\b/],
  },
];

describe('questions at narrow widths', () => {
  for (const columns of [60, 40]) {
    for (const c of CASES) {
      it(`${c.name} keeps every key visible at ${columns} columns, wrapping instead of cutting`, async () => {
        const view = app(c.store(), columns, c.remote ? new PaneControls() : new RecordingControls());
        if (c.keys) await view.press(c.keys);
        const rows = bannerRows(view.lines(), c.first);
        expect(overflowing(view.text(), columns)).toEqual([]);
        const keyRow = rows.at(-1)!;
        for (const pattern of c.expect) expect(keyRow).toMatch(pattern);
        // No word of the question is cut: each row ends at a word, or with … after one.
        for (const row of rows.slice(0, -1)) expect(row.trimEnd()).toMatch(/[\w.?,;:)%]$|…$/);
      });
    }
  }

  it('shortens the words of the keys before dropping them, and never drops a key', () => {
    const choices = [
      { key: 'y', does: 'stops it and leaves', short: 'stop' },
      { key: 'n', does: 'leaves it running', short: 'leave' },
      { key: 'esc', does: 'stays here', short: 'stay' },
    ];
    const text = (w: number) =>
      fitChoices(choices, w)
        .map((p) => p.text)
        .join('');
    expect(text(80)).toBe('y stops it and leaves · n leaves it running · esc stays here');
    expect(text(54)).toBe('y stops it and leaves · n leaves it running · esc stay');
    expect(text(42)).toBe('y stops it and leaves · n leave · esc stay');
    expect(text(30)).toBe('y stop · n leave · esc stay');
    expect(text(20)).toBe('y · n · esc');
    expect(text(5)).toBe('y · n · esc');
  });

  it('wraps a long question at word boundaries onto two lines, then ends it with …', () => {
    expect(wrapWords('Stop the run now? Its running step is cancelled', 20, 2)).toEqual([
      'Stop the run now?',
      'Its running step…',
    ]);
    const fitted = fitQuestion({ text: 'Roll back?', choices: [{ key: 'y', does: 'yes' }] }, 40);
    expect(fitted).toMatchObject({ inline: true, question: ['Roll back?'] });
  });
});
