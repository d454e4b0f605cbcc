// The screen never says what the session does not: a store fed the states a real session writes (as the mirror
// of watch and the pane reads them, and as the loop emits them) drops a state the session left at once.
import { afterEach, describe, expect, it } from 'vitest';
import { App } from '../../src/app.js';
import type { IterationState } from '../../src/engine/session/schema.js';
import { createFixcycleStore } from '../../src/state/store.js';
import { eventsFromState } from '../../src/tui/state-events.js';
import { renderTui } from './render.js';
import { RecordingControls } from './recording-controls.js';
import { failure, failureStore, iterationState, results } from './scenarios.js';

let unmount: (() => void) | undefined;
afterEach(() => unmount?.());

const low = [failure('cosmetic: greeting is title case', 'AssertionError: HELLO !== Hello', 'low')];
const at95 = results(95, low, 20);
const at80 = results(80, [...low, failure('total of one item', 'AssertionError: 6 !== 5')], 20);
const FIXED = {
  iteration: 1,
  strategy: 'conservative' as const,
  pass_rate_before: 80,
  pass_rate: 95,
  test_results: { total: 20, passed: 19, failed: 1 },
  result: 'improved',
  step: 'done' as const,
  commit: '1bd3769aa9f0c3e1d2b4a5c6d7e8f90123456789',
  completed_at: '2025-10-17T10:01:00Z',
};

// The states `fixcycle run --headless --wait-approval` writes, in order, when a pane rolls back at the approval.
const awaiting = iterationState([FIXED], { status: 'awaiting_approval', next_action: 'await_approval' });
const rolledBack = iterationState([{ ...FIXED, result: 'rolled_back', rollback_commit: 'abcdef0123' }], {
  status: 'active',
  next_action: 'execute_fix_task',
});
const secondAnalysing = iterationState(
  [
    { ...FIXED, result: 'rolled_back', rollback_commit: 'abcdef0123' },
    { iteration: 2, strategy: 'conservative', pass_rate_before: 80, result: 'in_progress', step: 'analyze' },
  ],
  { status: 'active', next_action: 'execute_fix_task' },
);

function mirrored(view: ReturnType<typeof renderTui>, state: IterationState, res = at95) {
  view.store.getState().apply({ type: 'results', iteration: state.current_iteration, results: res });
  for (const event of eventsFromState(state, res)) view.store.getState().apply(event);
}

function open() {
  const store = createFixcycleStore({ flushMs: 1 });
  store.getState().apply({
    type: 'session',
    sessionId: 'WFS-test-second',
    sessionDir: '/tmp/none',
    repo: '/tmp/none',
    chain: ['demo-agent'],
    testCommand: 'node --test',
    resumed: false,
  });
  const view = renderTui(<App onQuit={() => {}} />, {
    columns: 80,
    rows: 24,
    store,
    controls: new RecordingControls(),
  });
  unmount = view.unmount;
  return view;
}

describe('a state the session leaves leaves the screen', () => {
  it('drops the approval question, its ? marks and the completion step once a rollback from a pane reopens the loop', async () => {
    const view = open();
    mirrored(view, awaiting);
    await view.waitFor('Partial success awaiting approval');
    expect(view.store.getState().phases.completion.detail).toBe('awaiting approval');

    mirrored(view, rolledBack, at80);
    const screen = await view.waitFor((s) => !s.includes('awaiting approval'));
    expect(screen).not.toContain('a approves');
    expect(view.store.getState().awaitingApproval).toBeNull();
    expect(view.store.getState().phases.completion.status).toBe('pending');

    mirrored(view, secondAnalysing, at80);
    const next = await view.waitFor('Iteration 2');
    expect(next).not.toContain('awaiting approval');
    expect(next).not.toMatch(/\?\s*(Re-test|Analysis|Fix|Completion)/);
  });

  it("shows where a session another process drove left its fixes, from its state file (a pane's view)", async () => {
    const view = open();
    const command = 'git cherry-pick 5e6f7a8..fixcycle/WFS-test-second';
    mirrored(view, {
      ...awaiting,
      status: 'completed',
      outcome_reason: 'all tests pass',
      worktree: {
        dir: '/tmp/none-worktree',
        branch: 'fixcycle/WFS-test-second',
        user_branch: 'refs/heads/main',
        base: '1'.repeat(40),
        snapshot: '1'.repeat(40),
        handback: { status: 'waiting', commits: ['a', 'b'], reason: 'you switched to other', command, at: '' },
      },
    });
    const screen = await view.waitFor('wait on fixcycle/WFS-test-second');
    expect(screen).toContain('2 commits wait on fixcycle/WFS-test-second: you switched to other');
    expect(screen).toContain(`take them: ${command}`);
  });

  it('drops the question when the live loop saves a state that no longer waits (the same sequence, emitted)', () => {
    const store = createFixcycleStore();
    const { apply } = store.getState();
    apply({ type: 'state', state: awaiting });
    apply({ type: 'phase', phase: 'validation', status: 'done', iteration: 1 });
    apply({ type: 'phase', phase: 'completion', status: 'running', iteration: 1, detail: 'awaiting approval' });
    apply({ type: 'await-approval', passRate: 95, failures: low });
    apply({ type: 'phase', phase: 'validation', status: 'running', iteration: 1 });
    // The full suite after the rollback runs while the state still awaits: the running validation stays.
    expect(store.getState().phases.validation.status).toBe('running');
    apply({ type: 'state', state: rolledBack });
    const s = store.getState();
    expect(s.awaitingApproval).toBeNull();
    expect(s.phases.completion).toEqual({ status: 'pending' });
    expect(s.phases.validation.status).toBe('running');
  });

  it('drops the outcome a headless run left awaiting approval once a resume makes the session active again', async () => {
    const view = open();
    mirrored(view, awaiting);
    view.store.getState().apply({
      type: 'done',
      outcome: 'awaiting_approval',
      reason: 'partial success at 95% awaits approval',
      exitCode: 3,
      passRate: 95,
    });
    await view.waitFor('awaiting approval');
    mirrored(view, { ...awaiting, status: 'active', next_action: 'complete' });
    const screen = await view.waitFor((s) => !s.includes('awaiting approval'));
    expect(view.store.getState().done).toBeNull();
    expect(screen).not.toContain('exit code 3');
    mirrored(view, { ...awaiting, status: 'partial_success', next_action: 'complete' });
    expect(await view.waitFor('Partial success · pass rate 95%')).not.toContain('awaiting approval');
  });

  it('shows a second run from its own start after the first ended', async () => {
    const view = open();
    mirrored(view, { ...awaiting, status: 'partial_success', next_action: 'complete' });
    await view.waitFor('Partial success · pass rate 95%');
    view.store.getState().apply({
      type: 'session',
      sessionId: 'WFS-test-third',
      sessionDir: '/tmp/none',
      repo: '/tmp/none',
      chain: ['demo-agent'],
      testCommand: 'node --test',
      resumed: false,
    });
    mirrored(view, iterationState([], { session_id: 'WFS-test-third', status: 'active' }), at80);
    const screen = await view.waitFor((s) => s.includes('WFS-test-third') && !s.includes('Partial success'));
    expect(screen).not.toContain('exit code');
  });

  it('never shows an iteration done in the tree while its row (the session) still says it runs', async () => {
    const store = createFixcycleStore({ flushMs: 1 });
    const { apply } = store.getState();
    const running = { iteration: 2, strategy: 'conservative' as const, pass_rate_before: 80, result: 'in_progress' };
    apply({ type: 'state', state: iterationState([FIXED, running], { current_iteration: 2 }) });
    for (const phase of ['analysis', 'fix', 'retest'] as const)
      apply({ type: 'phase', phase, status: 'done', iteration: 2 });
    const view = renderTui(<App onQuit={() => {}} />, { columns: 120, rows: 40, store, controls: null });
    unmount = view.unmount;
    let screen = await view.waitFor('Iteration 2');
    expect(screen).not.toContain('✓ Iteration 2: done');
    expect(screen).toContain('Iteration 2: Fix validation done');
    expect(screen).toMatch(/2\s+conservative.*running/);
    // The loop records the iteration's end: now both say it.
    const ended = { ...running, pass_rate: 100, result: 'improved', completed_at: '2025-10-17T10:03:00Z' };
    apply({ type: 'state', state: iterationState([FIXED, ended], { current_iteration: 2 }) });
    screen = await view.waitFor('✓ Iteration 2: done');
    expect(screen).toMatch(/2\s+conservative.*improved/);
  });

  it("shows an interrupted session (another process's, from its state file) stopped where it was: no validation or completion done, its iteration interrupted, not running", async () => {
    const interrupted = iterationState(
      [
        { ...FIXED, result: 'rolled_back', rollback_commit: 'abcdef0123' },
        { iteration: 2, strategy: 'conservative', pass_rate_before: 80, result: 'in_progress', step: 'fix' },
      ],
      { status: 'interrupted', current_iteration: 2, next_action: 'execute_fix_task' },
    );
    const view = open();
    mirrored(view, interrupted, at80);
    const screen = await view.waitFor('Interrupted');
    expect(screen).not.toMatch(/✓ (Completion|Final validation)/);
    expect(screen).toMatch(/2\s+cons\S*\s.*interrupted/);
    expect(screen).not.toMatch(/2\s+cons\S*\s.*running/);
    expect(screen).toMatch(/1\s+cons\S*\s.*rolled back by user/);
  });

  it("shows an ended session's clock from its own times and when its state was last written", () => {
    // Started 10:00, last written 10:20: 20 minutes, however long ago that was.
    const store = failureStore();
    store.setState({ startedAt: Date.parse('2025-10-17T10:00:00Z') });
    const view = renderTui(<App onQuit={() => {}} />, { columns: 120, rows: 40, store, controls: null });
    unmount = view.unmount;
    expect(view.lines().at(-1)).toMatch(/ 20m\b/);
    expect(view.text()).not.toContain('no events yet');
  });
});
