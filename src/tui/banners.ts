import type { LoopControls } from '../engine/events.js';
import type { SessionView } from '../state/store.js';
import type { ConfirmPrompt, UiState } from '../state/ui-state.js';
import { approvalQuestion } from './approval-question.js';
import { handbackLines, handbackRows } from './handback-line.js';
import { fitQuestion, questionRows, type Question } from './question-lines.js';

/** Which banners show: the approval question, the outcome, a y/n prompt. */
export interface BannerFlags {
  approval: boolean;
  done: boolean;
  confirm: boolean;
}

export function bannerFlags(
  view: Pick<SessionView, 'awaitingApproval' | 'done'>,
  ui: Pick<UiState, 'confirm'>,
): BannerFlags {
  const awaiting = view.awaitingApproval !== null && (view.done === null || view.done.outcome === 'awaiting_approval');
  return { approval: awaiting, done: view.done !== null && !awaiting, confirm: ui.confirm !== null };
}

const YES_NO = [
  { key: 'y', does: 'yes' },
  { key: 'n', does: 'no' },
];

/** The question a confirm prompt asks, with its keys (y yes · n no unless it names its own). */
export const confirmQuestion = (confirm: ConfirmPrompt): Question => ({
  text: confirm.prompt,
  choices: confirm.choices ?? YES_NO,
});

/** Rows the banners take at `width`: the approval and a question as many as they fit in (1-3), two for the outcome. */
export function bannerHeight(
  flags: BannerFlags,
  width: number,
  view: Pick<SessionView, 'awaitingApproval' | 'sessionId' | 'state'> & Partial<Pick<SessionView, 'handback'>>,
  ui: Pick<UiState, 'confirm'>,
  controls: LoopControls | null,
): number {
  const rows = (q: Question | null) => (q ? questionRows(fitQuestion(q, width)) : 0);
  return (
    rows(flags.approval ? approvalQuestion(view, controls) : null) +
    (flags.done ? 2 + handbackRows(handbackLines(view.handback ?? null, Boolean(controls?.takeFixes)), width) : 0) +
    rows(flags.confirm && ui.confirm ? confirmQuestion(ui.confirm) : null)
  );
}
