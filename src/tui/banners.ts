import type { SessionView } from '../state/store.js';
import type { UiState } from '../state/ui-state.js';

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

/** Rows the banners take: two for approval and outcome, one for a question. */
export function bannerHeight(flags: BannerFlags): number {
  return (flags.approval ? 2 : 0) + (flags.done ? 2 : 0) + (flags.confirm ? 1 : 0);
}
