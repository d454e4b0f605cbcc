// In a real terminal at 60 and 40 columns, each question and banner that asks for a key shows every key:
// the approval banner, the rollback question, run's quit question (q and Ctrl-C) and the pane's (y/n/esc).
// Needs `npm run build`.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { spawnInPty, type PtyTerminal } from './pty-terminal.js';

const DIST = resolve(import.meta.dirname, '../../dist');
const work = mkdtempSync(join(tmpdir(), 'fixcycle-questions-'));
let term: PtyTerminal | undefined;
afterEach(() => term?.kill());
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A TUI on a session awaiting approval after iteration 1 committed a fix; `remote` controls act as a pane's. */
function driver(remote: boolean): string {
  const path = join(work, `driver-${remote ? 'pane' : 'run'}.mjs`);
  const url = (p: string) => JSON.stringify(pathToFileURL(join(DIST, p)).href);
  writeFileSync(
    path,
    `import { startTui } from ${url('tui/start.js')};
import { createFixcycleStore } from ${url('state/store.js')};
const store = createFixcycleStore();
const apply = store.getState().apply;
const failures = [{ id: 't::cosmetic', name: 'cosmetic', message: 'AssertionError', criticality: 'low', criticality_source: 'config' }];
apply({ type: 'session', sessionId: 'WFS-test-narrow', sessionDir: ${JSON.stringify(work)}, repo: ${JSON.stringify(work)}, chain: ['claude'], testCommand: 'node --test', resumed: false });
apply({ type: 'phase', phase: 'test', status: 'done', iteration: 0 });
apply({ type: 'state', state: { session_id: 'WFS-test-narrow', current_task: 'x', current_iteration: 1, max_iterations: 5, started_at: new Date().toISOString(), updated_at: new Date().toISOString(), status: 'awaiting_approval', selected_strategy: 'conservative', strategy_reason: 'first', next_action: 'await_approval', stuck_tests: [], iterations: [{ iteration: 1, strategy: 'conservative', pass_rate_before: 80, pass_rate: 95, result: 'improved', step: 'done', commit: '1bd3769aa9f0c3e1d2b4a5c6d7e8f90123456789' }] } });
apply({ type: 'phase', phase: 'completion', status: 'running', iteration: 1, detail: 'awaiting approval' });
apply({ type: 'await-approval', passRate: 95, failures });
const controls = { remote: ${remote}, approve: () => null, requestRollback: () => null, togglePause: () => false, stop: () => {} };
const tui = startTui({ store, controls });
await tui.waitUntilExit();
`,
  );
  return path;
}

/** The rows from the one containing `first` down to the status line (the row with ` │ `), as one string per row. */
function rowsFrom(rows: string[], first: string): string[] {
  const at = rows.findIndex((r) => r.includes(first));
  if (at < 0) return [];
  const status = rows.findIndex((r, i) => i > at && r.includes(' │ '));
  return rows.slice(at, status < 0 ? undefined : status);
}

describe.each([60, 40])('at %i columns', (columns) => {
  it('every key of every question stays visible, in a real terminal', async () => {
    if (!existsSync(join(DIST, 'tui/start.js'))) throw new Error('dist is missing: build first with npm run build');
    term = spawnInPty(process.execPath, [driver(false)], { columns, rows: 24, cwd: work });
    const t = term;
    await t.waitFor('? Partial success');
    const approval = rowsFrom(t.rows(), '? Partial success');
    expect(approval.at(-1)).toMatch(/\ba\b.* · r\b.* · q\b/);

    t.press('r');
    await t.waitFor('Roll back iteration 1');
    expect(rowsFrom(t.rows(), 'Roll back iteration 1').join('\n')).toMatch(/\by\b.* · n\b/);
    t.press('\x1b');
    await t.waitFor((s) => !s.includes('Roll back iteration 1'));

    t.press('\x03');
    await t.waitFor('Stop the loop now');
    expect(rowsFrom(t.rows(), 'Stop the loop now').join('\n')).toMatch(/\by\b.* · n\b.* · esc\b/);
    for (const row of t.rows()) expect(row.length).toBeLessThanOrEqual(columns);
    t.press('y');
    await t.waitFor((s) => !s.includes('Stop the loop now'));
    t.press('q');
    await t.exited;

    term = spawnInPty(process.execPath, [driver(true)], { columns, rows: 24, cwd: work });
    await term.waitFor('? Partial success');
    term.press('q');
    await term.waitFor('Stop the run now');
    expect(rowsFrom(term.rows(), 'Stop the run now').join('\n')).toMatch(/\by\b.* · n\b.* · esc\b/);
    // n leaves the pane and the run goes on.
    term.press('n');
    await term.exited;
  }, 30_000);
});
