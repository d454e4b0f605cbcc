import { describe, expect, it } from 'vitest';
import type { Key } from 'ink';
import { groupFailures } from '../../src/tui/failure-groups.js';
import {
  formatDelta,
  formatDuration,
  formatPercent,
  iterationRows,
  lastCommittedIteration,
} from '../../src/tui/iteration-rows.js';
import { commandForKey, KEY_BINDINGS } from '../../src/tui/key-bindings.js';
import { formatHints, keyHints } from '../../src/tui/key-hints.js';
import { computeLayout } from '../../src/tui/layout.js';
import { isFailureLine, sanitizeLine } from '../../src/tui/sanitize-line.js';
import { initialUiState } from '../../src/state/ui-state.js';
import { failure, FIRST } from './scenarios.js';

const key = (flags: Partial<Key> = {}): Key =>
  ({
    upArrow: false,
    downArrow: false,
    leftArrow: false,
    rightArrow: false,
    pageDown: false,
    pageUp: false,
    home: false,
    end: false,
    return: false,
    escape: false,
    ctrl: false,
    shift: false,
    tab: false,
    backspace: false,
    delete: false,
    meta: false,
    super: false,
    hyper: false,
    capsLock: false,
    numLock: false,
    ...flags,
  }) as Key;

describe('commandForKey', () => {
  it('maps letters, named keys and modifiers through the one table', () => {
    expect(commandForKey('a', key())).toBe('approve');
    expect(commandForKey('k', key())).toBe('up');
    expect(commandForKey('', key({ upArrow: true }))).toBe('up');
    expect(commandForKey('\t', key({ tab: true }))).toBe('focus-next');
    expect(commandForKey('', key({ tab: true, shift: true }))).toBe('focus-prev');
    expect(commandForKey('\r', key({ return: true }))).toBe('open');
    expect(commandForKey('G', key({ shift: true }))).toBe('bottom');
    expect(commandForKey('c', key({ ctrl: true }))).toBe('quit');
    expect(commandForKey('a', key({ ctrl: true }))).toBeNull();
    expect(commandForKey('x', key())).toBeNull();
  });

  it('binds no key twice', () => {
    const seen = new Set<string>();
    for (const binding of KEY_BINDINGS) {
      for (const spec of binding.keys) {
        const id = JSON.stringify(spec);
        expect(seen.has(id), id).toBe(false);
        seen.add(id);
      }
    }
  });
});

describe('keyHints', () => {
  const base = {
    ui: initialUiState,
    watch: false,
    awaitingApproval: false,
    done: false,
    paused: false,
    canRollback: true,
    hasIterations: true,
  };
  it('shows the few keys that matter now, from the table, joined by " · "', () => {
    expect(formatHints(keyHints(base))).toBe(
      'r roll back · p pause · f hold · enter open · tab focus · ? help · q quit',
    );
    expect(formatHints(keyHints({ ...base, awaitingApproval: true, paused: true }))).toMatch(
      /^a approve · r roll back · p resume/,
    );
    expect(formatHints(keyHints({ ...base, watch: true }))).toBe('f hold · enter open · tab focus · ? help · q quit');
    expect(formatHints(keyHints({ ...base, ui: { ...initialUiState, stopping: true } }))).toContain('q leave now');
  });

  it('offers enter on a failure group only in the failures pane with groups, and scroll and close in its view', () => {
    const failures = { ...initialUiState, focus: 'failures' as const };
    expect(formatHints(keyHints({ ...base, ui: failures, hasFailureGroups: true }))).toBe(
      'enter suspects · r roll back · p pause · ↑/k select · v failures · tab focus · ? help · q quit',
    );
    expect(formatHints(keyHints({ ...base, ui: failures, hasFailureGroups: false }))).toBe(
      'r roll back · p pause · ↑/k scroll · enter open · tab focus · ? help · q quit',
    );
    expect(formatHints(keyHints({ ...base, hasFailureGroups: true }))).toContain('enter open');
    expect(formatHints(keyHints({ ...base, ui: { ...failures, failureDetail: { failureId: 't::a', top: 0 } } }))).toBe(
      '↑/k scroll · esc close',
    );
  });
});

describe('computeLayout', () => {
  it('uses every row but the last, wide and compact alike', () => {
    for (const [columns, rows] of [
      [120, 40],
      [80, 24],
      [60, 20],
      [40, 10],
    ] as const) {
      for (const banners of [0, 2, 3]) {
        const l = computeLayout(columns, rows, banners, 3);
        const body = l.compact
          ? l.phaseHeight + l.iterationsHeight + 1 + l.outputHeight
          : l.phaseHeight + l.iterationsHeight + l.logHeight + 1 + l.outputHeight;
        expect(l.height).toBe(rows - 1);
        if (l.outputHeight > 1) expect(1 + body + banners + 1).toBe(rows - 1);
      }
    }
  });

  it('goes compact below 80 columns and grows the iteration table with the iterations', () => {
    expect(computeLayout(79, 40, 0).compact).toBe(true);
    expect(computeLayout(80, 24, 0).compact).toBe(false);
    expect(computeLayout(120, 40, 0, 1).iterationRows).toBe(2);
    expect(computeLayout(120, 40, 0, 5).iterationRows).toBe(5);
    expect(computeLayout(120, 40, 0, 50).iterationRows).toBe(7);
  });
});

describe('iterationRows', () => {
  it('computes the change from the iteration before, ignoring a rolled-back one', () => {
    const rows = iterationRows([
      FIRST,
      { iteration: 2, pass_rate: 60, result: 'regressed_rolled_back', commit: 'abc' },
      { iteration: 3, pass_rate: 90, result: 'improved' },
    ]);
    expect(rows.map((r) => r.delta)).toEqual([7.5, -22.5, 7.5]);
    expect(rows.map((r) => r.outcomeLabel)).toEqual(['improved', 'regression rolled back', 'improved']);
  });

  it('finds the fix commit a rollback would revert', () => {
    expect(
      lastCommittedIteration([FIRST, { iteration: 2, commit: 'abc', result: 'regressed_rolled_back' }])?.iteration,
    ).toBe(1);
    expect(lastCommittedIteration([{ iteration: 1 }])).toBeUndefined();
  });

  it('formats numbers so they read without color', () => {
    expect([formatPercent(82), formatPercent(82.53), formatPercent(undefined)]).toEqual(['82%', '82.5%', '—']);
    expect([formatDelta(7), formatDelta(-3.5), formatDelta(0), formatDelta(undefined)]).toEqual([
      '+7',
      '−3.5',
      '±0',
      '',
    ]);
    expect([
      formatDuration(850),
      formatDuration(42_000),
      formatDuration(185_000),
      formatDuration(3_720_000),
      formatDuration(200 * 3_600_000),
    ]).toEqual(['850ms', '42s', '3m 05s', '1h 02m', '8d 8h']);
  });
});

describe('groupFailures', () => {
  it('groups only the same message with the same criticality, most critical and largest first', () => {
    const groups = groupFailures([
      failure('a', 'AssertionError: expected 1999 to equal 2000', 'low'),
      failure('b', 'AssertionError: expected 1999 to equal 2000', 'medium'),
      failure('c', 'TypeError: Cannot read properties of undefined (reading "x")', 'high'),
      failure('d', 'AssertionError: expected 499 to equal 500', 'low'),
      failure('e', 'AssertionError: expected 1999 to equal 2000', 'low'),
    ]);
    expect(groups.map((g) => [g.criticality, g.failures.map((f) => f.name)])).toEqual([
      ['high', ['c']],
      ['medium', ['b']],
      ['low', ['a', 'e']],
      ['low', ['d']],
    ]);
  });

  it('keeps unrelated messages apart', () => {
    expect(
      groupFailures([failure('a', 'ENOENT: no such file'), failure('b', 'timeout of 2000ms exceeded')]),
    ).toHaveLength(2);
  });
});

describe('sanitizeLine', () => {
  it('keeps colors only when asked, and cuts at the width', () => {
    expect(sanitizeLine('\x1b[31mred\x1b[39m')).toBe('\x1b[31mred\x1b[39m\x1b[0m');
    expect(sanitizeLine('\x1b[31mred\x1b[39m', { color: false })).toBe('red');
    expect(sanitizeLine('abcdef', { maxChars: 3 })).toBe('abc');
  });

  it('drops what would move the cursor, clear the screen or set the title', () => {
    expect(sanitizeLine('a\x1b[2Kb\x1b[1Ac\x1b]0;t\x07d\x1b]8;;http://x\x1b\\e\x07f\x08')).toBe('abcdef');
  });

  it('recognises failure lines of the common runners', () => {
    for (const line of [
      'FAIL src/a.test.ts',
      'not ok 3 - adds',
      '  ✗ adds',
      '× adds',
      'AssertionError: x',
      '  2 failing',
    ])
      expect(isFailureLine(line), line).toBe(true);
    for (const line of ['ok 3 - adds', '✓ adds', 'PASS src/a.test.ts', '# fail 0'])
      expect(isFailureLine(line), line).toBe(false);
  });
});
