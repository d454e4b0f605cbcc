import { afterEach, describe, expect, it } from 'vitest';
import { ApprovalBanner } from '../../src/components/approval-banner.js';
import { ConfirmPrompt } from '../../src/components/confirm-prompt.js';
import { DoneBanner } from '../../src/components/done-banner.js';
import { overflowing, renderTui } from '../tui/render.js';
import { RecordingControls } from '../tui/recording-controls.js';
import { awaitingApprovalStore, failureStore, runningStore } from '../tui/scenarios.js';
import { SIZES } from './sizes.js';

let unmount: (() => void) | undefined;
afterEach(() => unmount?.());

describe('ApprovalBanner', () => {
  it('asks for approval with the pass rate, what is left and the keys', () => {
    const view = renderTui(<ApprovalBanner width={120} />, {
      columns: 120,
      rows: 40,
      store: awaitingApprovalStore(),
      controls: new RecordingControls(),
    });
    unmount = view.unmount;
    const [first, second] = view.lines();
    expect(first).toBe('? Partial success awaiting approval: pass rate 96.5%, 1 low-criticality failure left');
    expect(second).toContain('a approves and finishes · r rolls back the last fix');
  });

  it('offers no rollback when the first test run itself was a partial success', () => {
    const store = awaitingApprovalStore();
    const state = store.getState().state!;
    store.getState().apply({ type: 'state', state: { ...state, iterations: [] } });
    const view = renderTui(<ApprovalBanner width={120} />, {
      columns: 120,
      rows: 40,
      store,
      controls: new RecordingControls(),
    });
    unmount = view.unmount;
    expect(view.lines()[1]).toBe('  a approves and finishes · q stops the run (asks first)');
  });

  it('says the command that approves when no key can reach the session', () => {
    const view = renderTui(<ApprovalBanner width={120} />, {
      columns: 120,
      rows: 40,
      store: awaitingApprovalStore(),
      controls: null,
    });
    unmount = view.unmount;
    expect(view.text().replace(/\n/g, ' ')).toContain(
      'Approve with fixcycle run --resume-session WFS-test-checkout --yes',
    );
  });

  it('draws nothing when no approval is asked', () => {
    const view = renderTui(<ApprovalBanner width={120} />, { columns: 120, rows: 40, store: runningStore() });
    unmount = view.unmount;
    expect(view.text()).toBe('');
  });
});

describe('DoneBanner', () => {
  it('says the outcome, the final pass rate, the exit code, why and where the report is', () => {
    const view = renderTui(<DoneBanner width={120} />, { columns: 120, rows: 40, store: failureStore() });
    unmount = view.unmount;
    const [first, second] = view.lines();
    expect(first).toBe('✗ Failure · pass rate 72% · exit code 1');
    // The reason shortens; the report's path and the key stay whole.
    expect(second).toMatch(
      /^ {2}max iterations reached \(5\) with… · report: \.workflow\/active\/WFS-test-checkout\/\.summaries\/failure-report\.md · q quits$/,
    );
  });

  it('tells how to resume an interrupted session', () => {
    const store = runningStore();
    store
      .getState()
      .apply({ type: 'done', outcome: 'interrupted', reason: 'stopped by the user', exitCode: 130, passRate: 82.5 });
    const view = renderTui(<DoneBanner width={120} />, { columns: 120, rows: 40, store });
    unmount = view.unmount;
    expect(view.text()).toContain('‖ Interrupted · pass rate 82.5% · exit code 130');
    expect(view.text()).toContain('resume with fixcycle run --resume-session WFS-test-checkout');
  });

  it('celebrates quietly', () => {
    const store = runningStore();
    store.getState().apply({ type: 'done', outcome: 'success', reason: 'all tests pass', exitCode: 0, passRate: 100 });
    const view = renderTui(<DoneBanner width={120} />, { columns: 120, rows: 40, store });
    unmount = view.unmount;
    expect(view.lines()[0]).toBe('✓ Success · pass rate 100% · exit code 0');
  });

  it('says where the fixes went: back on the branch, or waiting with the whole command that takes them, at 60 columns', () => {
    const store = runningStore();
    store.getState().apply({ type: 'handback', status: 'applied', branch: 'fixcycle/WFS-test-checkout', commits: 2 });
    store.getState().apply({ type: 'done', outcome: 'success', reason: 'all tests pass', exitCode: 0, passRate: 100 });
    let view = renderTui(<DoneBanner width={60} />, { columns: 60, rows: 20, store });
    expect(view.lines()[2]).toBe('  ↩ 2 commits handed back to your branch');
    view.unmount();
    const command = 'git cherry-pick 1a2b3c4..fixcycle/WFS-test-checkout-20261128-061500';
    store.getState().apply({
      type: 'handback',
      status: 'conflict',
      branch: 'fixcycle/WFS-test-checkout-20261128-061500',
      commits: 1,
      command,
    });
    view = renderTui(<DoneBanner width={60} />, { columns: 60, rows: 20, store });
    unmount = view.unmount;
    expect(view.lines()[2]).toMatch(/^ {2}⏸ 1 commit wait on fixcycle\/WFS-test-checkout-2026112.*…$/);
    // Wrapped, never cut: the lines after the third hold the whole command.
    expect(
      view
        .lines()
        .slice(3)
        .map((l) => l.trim())
        .join(' '),
    ).toBe(`take them: ${command}`);
    expect(overflowing(view.text(), 60)).toEqual([]);
  });
});

describe('ConfirmPrompt', () => {
  it('asks the question with its y/n', () => {
    const view = renderTui(<ConfirmPrompt width={120} />, {
      columns: 120,
      rows: 40,
      ui: { confirm: { kind: 'rollback', prompt: 'Roll back iteration 2 (1bd3769)?' } },
    });
    unmount = view.unmount;
    expect(view.text()).toBe('Roll back iteration 2 (1bd3769)?  y yes · n no');
  });
});

for (const size of SIZES) {
  it(`banners stay within ${size.name}`, () => {
    const view = renderTui(
      <>
        <ApprovalBanner width={size.columns} />
        <DoneBanner width={size.columns} />
        <ConfirmPrompt width={size.columns} />
      </>,
      {
        columns: size.columns,
        rows: size.rows,
        store: awaitingApprovalStore(),
        controls: new RecordingControls(),
        ui: {
          confirm: {
            kind: 'quit',
            prompt: 'Stop the loop after the current step and leave? The session stays resumable.',
          },
        },
      },
    );
    unmount = view.unmount;
    expect(view.lines().length).toBeLessThanOrEqual(6);
    expect(overflowing(view.text(), size.columns)).toEqual([]);
  });
}
