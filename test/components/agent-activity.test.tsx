import { afterEach, describe, expect, it } from 'vitest';
import { App } from '../../src/app.js';
import { IterationTable } from '../../src/components/iteration-table.js';
import { OutputPane } from '../../src/components/output-pane.js';
import type { AgentActivity } from '../../src/engine/agents/agent.js';
import { plainLine } from '../../src/headless/plain-reporter.js';
import { overflowing, renderTui } from '../tui/render.js';
import { runningStore } from '../tui/scenarios.js';
import { SIZES } from './sizes.js';

let unmount: (() => void) | undefined;
afterEach(() => unmount?.());

/** What a codex fix really streams (see test/fixtures/real-cli-output/codex), as the loop relays it. */
const FIX: AgentActivity[] = [
  { kind: 'tool', tool: 'read', action: 'read', target: 'src/money.js' },
  { kind: 'retry', detail: 'exceeded retry limit, last status: 429 Too Many Requests', waitMs: 30_000 },
  { kind: 'tool', tool: 'apply_patch', action: 'edit', target: 'src/money.js' },
  { kind: 'tool', tool: 'exec_command', action: 'run', target: 'npm test' },
  { kind: 'tool', tool: 'bash', action: 'run', target: "sed -i 's/a/b/' src/money.js", denied: true },
  { kind: 'text', text: 'Fixed toCents in src/money.js.' },
  { kind: 'usage', tokens: 480, costUsd: 0.0123 },
];

function withActivities() {
  const store = runningStore();
  for (const activity of FIX)
    store.getState().apply({ type: 'agent-activity', iteration: 2, agent: 'codex', role: 'fix', activity });
  return store;
}

describe.each(SIZES)('agent activity at $name', ({ columns, rows }) => {
  it('shows in the output pane what the agent does, as it does it, one line each', async () => {
    const view = renderTui(<OutputPane width={columns} height={12} focused />, {
      columns,
      rows,
      store: withActivities(),
    });
    unmount = view.unmount;
    const text = await view.waitFor('Fixed toCents');
    const lines = view.lines();
    expect(lines.some((l) => l.startsWith('codex: › read src/money.js'))).toBe(true);
    expect(lines.some((l) => l.startsWith('codex: ✎ edit src/money.js'))).toBe(true);
    expect(lines.some((l) => l.startsWith('codex: $ npm test'))).toBe(true);
    expect(lines.some((l) => l.startsWith('codex: ↻ retry in 30 s: exceeded retry'))).toBe(true);
    expect(text).toContain(
      columns >= 100 ? "codex: $ sed -i 's/a/b/' src/money.js (refused)" : "codex: $ sed -i 's/a/b/'",
    );
    expect(text).toContain('codex: » Fixed toCents');
    // Running totals are for the iteration row, not the pane.
    expect(text).not.toContain('480');
    expect(overflowing(view.lastFrame(), columns)).toEqual([]);
  });

  it('shows the tokens and cost of a finished call in its iteration row where there is room', () => {
    const store = runningStore();
    store.getState().apply({
      type: 'agent',
      iteration: 1,
      agent: 'claude',
      role: 'analyze',
      status: 'finished',
      classification: 'ok',
      tokens: 12_345,
      costUsd: 0.0421,
    });
    store.getState().apply({
      type: 'agent',
      iteration: 1,
      agent: 'claude',
      role: 'fix',
      status: 'finished',
      classification: 'ok',
      tokens: 655,
      costUsd: 0.01,
    });
    const view = renderTui(<IterationTable width={columns} rows={6} compact={columns < 80} focused />, {
      columns,
      rows,
      store,
    });
    unmount = view.unmount;
    const row1 = view.lines().find((l) => /^[› ] 1 /.test(l)) ?? '';
    if (columns >= 120) {
      expect(view.text()).toMatch(/commit\s+usage/);
      expect(row1).toMatch(/1bd3769\s+13k tok \$0\.05/);
      // The running iteration has no finished call yet.
      expect(view.lines().find((l) => /^[› ] 2 /.test(l))).toMatch(/—\s*$/);
    } else {
      expect(row1).toMatch(/improved/);
      expect(row1).not.toContain('tok');
    }
    expect(overflowing(view.lastFrame(), columns)).toEqual([]);
  });

  it('keeps the whole screen within the terminal while an agent streams', async () => {
    const view = renderTui(<App onQuit={() => {}} />, { columns, rows, store: withActivities() });
    unmount = view.unmount;
    await view.waitFor('codex:');
    expect(view.text()).toContain('codex: ');
    expect(overflowing(view.lastFrame(), columns)).toEqual([]);
  });
});

describe('agent activity headless', () => {
  const line = (activity: AgentActivity) =>
    plainLine({ type: 'agent-activity', iteration: 1, agent: 'opencode', role: 'analyze', activity });

  it('prints one line per tool call, retry and error', () => {
    expect(line({ kind: 'tool', tool: 'read', action: 'read', target: 'src/math.js' })).toBe(
      '[agent] opencode: › read src/math.js',
    );
    expect(line({ kind: 'tool', tool: 'edit', action: 'edit', target: 'src/math.js', denied: true })).toBe(
      '[agent] opencode: ✎ edit src/math.js (refused)',
    );
    expect(line({ kind: 'tool', tool: 'bash', action: 'run', target: 'npm test' })).toBe(
      '[agent] opencode: $ npm test',
    );
    expect(line({ kind: 'tool', tool: 'grep', action: 'search', target: 'toCents' })).toBe(
      '[agent] opencode: ⌕ search toCents',
    );
    expect(line({ kind: 'retry', detail: 'Rate limit reached' })).toBe('[agent] opencode: ↻ retry: Rate limit reached');
    expect(line({ kind: 'error', detail: 'Incorrect API key provided' })).toBe(
      '[agent] opencode: ✗ Incorrect API key provided',
    );
  });

  it('leaves the prose and running totals to the TUI and --json', () => {
    expect(line({ kind: 'text', text: 'I will read the file.' })).toBeNull();
    expect(line({ kind: 'usage', tokens: 120 })).toBeNull();
  });

  it('adds tokens and cost to the line of a finished call', () => {
    expect(
      plainLine({
        type: 'agent',
        iteration: 1,
        agent: 'opencode',
        role: 'fix',
        status: 'finished',
        classification: 'ok',
        durationMs: 5800,
        tokens: 480,
        costUsd: 0.0123,
      }),
    ).toBe('[agent] opencode (fix): ok in 5.8 s (480 tokens · $0.01)');
  });
});
