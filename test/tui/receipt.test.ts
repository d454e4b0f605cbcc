import { describe, expect, it } from 'vitest';
import { receiptLines } from '../../src/tui/receipt.js';
import { awaitingApprovalStore, failureStore, pendingStore, runningStore } from './scenarios.js';

describe('the receipt a quit leaves on the normal screen', () => {
  it('for a session that ended: its outcome, pass rate, iterations, id and report', () => {
    expect(receiptLines(failureStore().getState(), true)).toEqual([
      'fixcycle: ✗ Failure · pass rate 72% · iteration 1/5 · WFS-test-checkout',
      '  report: .workflow/active/WFS-test-checkout/.summaries/failure-report.md',
    ]);
  });

  it('for a watcher leaving a session that goes on: how to watch it again', () => {
    expect(receiptLines(runningStore().getState(), false)).toEqual([
      'fixcycle: … Still running · pass rate 82.5% · iteration 2/5 · WFS-test-checkout',
      '  watch it: fixcycle watch --session WFS-test-checkout',
    ]);
  });

  it('for a session awaiting approval: the command that approves', () => {
    expect(receiptLines(awaitingApprovalStore().getState(), false)[1]).toBe(
      '  approve: fixcycle run --resume-session WFS-test-checkout --yes',
    );
  });

  it('nothing when no session was shown', () => {
    expect(receiptLines({ ...pendingStore().getState(), sessionId: null }, false)).toEqual([]);
  });
});
