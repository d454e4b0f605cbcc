import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { join } from 'node:path';
import { App } from '../../src/app.js';
import { IterationDetail } from '../../src/components/iteration-detail.js';
import { createFixcycleStore } from '../../src/state/store.js';
import { fitDetailLines, loadIterationDetail } from '../../src/tui/iteration-detail-loader.js';
import { KEYS, overflowing, rawLine, renderTui } from '../tui/render.js';
import { RecordingControls } from '../tui/recording-controls.js';
import { FIRST, iterationState } from '../tui/scenarios.js';
import { tempRepo } from '../tui/temp-repo.js';
import { SIZES } from './sizes.js';

const repo = tempRepo();
afterAll(() => repo.cleanup());
let unmount: (() => void) | undefined;
afterEach(() => unmount?.());

const sessionDir = join(repo.dir, '.workflow/active/WFS-test-detail');
repo.commit('initial', { 'src/money.js': 'export const toCents = (a) => Math.floor(a * 100);\n' });
const sha = repo.commit('test-cycle: iteration 2 - conservative strategy (pass: 82% → 92%)', {
  'src/money.js': 'export const toCents = (a) => Math.round(a * 100);\n',
});
repo.write(
  '.workflow/active/WFS-test-detail/.process/iteration-2-analysis.md',
  '# Iteration 2 analysis\n\n## Root causes\n- toCents truncates\tinstead of rounding\n',
);
repo.write(
  '.workflow/active/WFS-test-detail/.process/iteration-2-cli-output.txt',
  '## claude (fix)\nread src/money.js\nedit src/money.js\nFixed toCents: it now rounds to the nearest cent instead of truncating the fraction.\n',
);
repo.write(
  '.workflow/active/WFS-test-detail/.task/IMPL-fix-2.json',
  JSON.stringify({
    id: 'IMPL-fix-2',
    title: 'Fix toCents rounding',
    context: {
      fix_strategy: {
        strategy: 'conservative',
        strategy_reason: 'iterations 1-2',
        approach: 'round to the nearest cent',
        confidence_score: 0.85,
        root_causes: ['toCents truncates'],
        modification_points: ['src/money.js:toCents:1'],
        affected_tests: ['toCents > rounds'],
      },
    },
  }),
);

describe('d from the iterations pane', () => {
  it("opens the selected iteration's fix diff, colored and scrollable; d closes it; an iteration without a commit says why", async () => {
    const store = createFixcycleStore();
    store.getState().apply({
      type: 'session',
      sessionId: 'WFS-test-detail',
      sessionDir,
      repo: repo.dir,
      chain: ['claude'],
      testCommand: 'node --test',
      resumed: true,
    });
    const second = { ...FIRST, iteration: 2, commit: sha, result: 'improved' as const };
    store.getState().apply({ type: 'state', state: iterationState([{ ...FIRST, commit: undefined }, second]) });
    const view = renderTui(<App onQuit={vi.fn()} />, {
      columns: 100,
      rows: 30,
      store,
      controls: new RecordingControls(),
    });
    unmount = view.unmount;
    await view.press(KEYS.tab);
    expect(view.lines().at(-1)).toContain('d diff');
    await view.press('d');
    let text = await view.waitFor('+export const toCents');
    expect(text).toContain('▸ Iteration 2 · fix diff');
    expect(text).toContain(`Fix · commit ${sha.slice(0, 7)}`);
    expect(text).not.toContain('Fix plan');
    expect(rawLine(view.lastFrame(), '+export const toCents')).toContain('\x1b[32m');
    expect(rawLine(view.lastFrame(), '-export const toCents')).toContain('\x1b[31m');
    // enter widens it to the whole iteration, d narrows it again, and d closes the diff.
    await view.press(KEYS.enter);
    expect(await view.waitFor('Fix plan')).toContain('▸ Iteration 2 ');
    await view.press('d');
    await view.waitFor((s) => s.includes('fix diff') && !s.includes('Fix plan'));
    await view.press('d');
    text = await view.waitFor('Iterations');
    expect(text).not.toContain('fix diff');
    await view.press('k');
    await view.press('d');
    expect(view.lines().at(-1)).toContain('Iteration 1 has no fix commit: enter opens its plan and analysis');
  });
});

describe('IterationDetail', () => {
  it("shows the fix's colored diff first, then the plan, what the agent said and did, and the analysis", async () => {
    const lines = await loadIterationDetail({
      sessionDir,
      repo: repo.dir,
      iteration: 2,
      entry: { iteration: 2, commit: sha },
    });
    const view = renderTui(<IterationDetail lines={lines} width={120} height={60} />, {
      columns: 120,
      rows: 62,
      ui: { detail: { iteration: 2, top: 0 } },
    });
    unmount = view.unmount;
    const text = view.text();
    expect(text.indexOf('Fix · commit')).toBeLessThan(text.indexOf('Fix plan'));
    expect(text).toContain('-export const toCents = (a) => Math.floor(a * 100);');
    expect(text).toContain('+export const toCents = (a) => Math.round(a * 100);');
    expect(rawLine(view.lastFrame(), '+export const toCents')).toContain('\x1b[32m');
    expect(rawLine(view.lastFrame(), '-export const toCents')).toContain('\x1b[31m');
    expect(text).toContain('Agent · .process/iteration-2-cli-output.txt');
    expect(text).toContain('Fixed toCents: it now rounds to the nearest cent');
    expect(text).toContain('▸ Iteration 2 · esc closes');
    expect(text).toContain('Analysis · .process/iteration-2-analysis.md');
    expect(text).toContain('- toCents truncates     instead of rounding');
    expect(text).toContain('Fix plan · .task/IMPL-fix-2.json');
    expect(text).toContain('approach: round to the nearest cent');
    expect(text).toContain('confidence: 85%');
    expect(text).toContain('  - src/money.js:toCents:1');
    expect(text).toContain(`Fix · commit ${sha.slice(0, 7)}`);
    expect(text).toContain('test-cycle: iteration 2 - conservative strategy');
    expect(text).toMatch(/src\/money\.js \| 2 \+-/);
  });

  it('says what is not written yet instead of failing', async () => {
    const lines = await loadIterationDetail({ sessionDir, repo: repo.dir, iteration: 3, entry: { iteration: 3 } });
    const view = renderTui(<IterationDetail lines={lines} width={120} height={38} />, {
      columns: 120,
      rows: 40,
      ui: { detail: { iteration: 3, top: 0 } },
    });
    unmount = view.unmount;
    expect(view.text().match(/\(not written yet\)/g)).toHaveLength(2);
    expect(view.text()).toContain('(no fix commit for this iteration)');
  });

  it('reads a half-written plan as such', async () => {
    repo.write('.workflow/active/WFS-test-detail/.task/IMPL-fix-4.json', '{"id": "IMPL-fix-4", "tit');
    const lines = await loadIterationDetail({ sessionDir, repo: repo.dir, iteration: 4 });
    expect(lines.map((l) => l.text)).toContain('(not valid JSON yet: the file may be half-written)');
  });

  for (const size of SIZES) {
    it(`scrolls within ${size.name} and says which lines show`, async () => {
      const lines = await loadIterationDetail({
        sessionDir,
        repo: repo.dir,
        iteration: 2,
        entry: { iteration: 2, commit: sha },
      });
      const view = renderTui(<IterationDetail lines={lines} width={size.columns} height={8} />, {
        columns: size.columns,
        rows: size.rows,
        ui: { detail: { iteration: 2, top: 2 } },
      });
      unmount = view.unmount;
      expect(view.lines()).toHaveLength(8);
      expect(view.text()).toMatch(new RegExp(`Iteration 2 · 3-9 of ${lines.length} · esc closes`));
      expect(overflowing(view.text(), size.columns)).toEqual([]);
    });
  }

  it('wraps prose at word boundaries keeping its indent, and ends diff lines with … instead of cutting them', () => {
    const fitted = fitDetailLines(
      [
        { text: '  - the fix rounds every price so they lose no cent' },
        { text: `+${'x'.repeat(30)} = 1;`, diff: 'add' },
      ],
      24,
    ).map((l) => l.text);
    expect(fitted).toEqual([
      '  - the fix rounds every',
      '    price so they lose',
      '    no cent',
      `+${'x'.repeat(22)}…`,
    ]);
    for (const line of fitted) expect(line.length).toBeLessThanOrEqual(24);
  });
});
