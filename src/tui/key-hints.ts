import type { UiState } from '../state/ui-state.js';
import { bindingOf, type Command } from './key-bindings.js';

/** What decides which keys matter now. */
export interface HintContext {
  ui: Pick<UiState, 'focus' | 'follow' | 'help' | 'detail' | 'failureDetail' | 'confirm' | 'stopping'>;
  /** No controls: another process drives the loop. */
  watch: boolean;
  awaitingApproval: boolean;
  done: boolean;
  paused: boolean;
  canRollback: boolean;
  hasIterations: boolean;
  /** The failures view has groups to select and open. */
  hasFailureGroups?: boolean;
  /** Fixes wait on the ended session's branch, and a key here can take them. */
  fixesWaiting?: boolean;
  /** `fixcycle team` offers its pipeline and waits for enter. */
  choosing?: boolean;
}

/** One footer entry: `a approve`. */
export interface KeyHint {
  command: Command;
  key: string;
  hint: string;
}

function hint(command: Command, word?: string): KeyHint {
  const binding = bindingOf(command);
  return { command, key: binding.label, hint: word ?? binding.hint };
}

/** The few keys that do something now, in the order they matter, from the key table. */
export function keyHints(ctx: HintContext): KeyHint[] {
  const { ui } = ctx;
  if (ui.confirm) return [hint('yes'), hint('no')];
  if (ui.detail || ui.failureDetail) return [hint('up', 'scroll'), hint('close')];
  if (ui.help) return [hint('close')];
  if (ctx.choosing && !ctx.watch)
    return [
      hint('open', 'start'),
      hint('pipeline-targeted'),
      hint('pipeline-standard'),
      hint('pipeline-comprehensive'),
      hint('help'),
      hint('quit'),
    ];
  const hints: KeyHint[] = [];
  const live = !ctx.watch && !ctx.done;
  const groups = ui.focus === 'failures' && ctx.hasFailureGroups;
  if (ctx.awaitingApproval && !ctx.watch) hints.push(hint('approve'));
  if (ctx.fixesWaiting) hints.push(hint('take-fixes'));
  // Focused on the failure groups, opening one is what the user came for: before the loop's keys, so a 60-column pane keeps it.
  if (groups) hints.push(hint('open', 'suspects'));
  // Focused on the iterations, opening one (or its diff) is what the user came for, as with the failure groups.
  const rows = ui.focus === 'iterations' && ctx.hasIterations;
  if (rows) hints.push(hint('open'), hint('diff'));
  if (live && ctx.canRollback) hints.push(hint('rollback'));
  if (live && !ui.stopping) hints.push(hint('pause', ctx.paused ? 'resume' : 'pause'));
  if (ui.focus === 'output') hints.push(hint('follow', ui.follow ? 'hold' : 'follow'));
  if (ui.focus !== 'output') hints.push(hint('up', ui.focus === 'iterations' || groups ? 'select' : 'scroll'));
  if (!groups && !rows && ctx.hasIterations) hints.push(hint('open'));
  if (ui.focus === 'failures' && ctx.hasFailureGroups) hints.push(hint('failures'));
  hints.push(hint('focus-next'), hint('help'), hint('quit', ui.stopping ? 'leave now' : 'quit'));
  return hints;
}

/** The hints as the footer shows them, joined by ` · `. */
export function formatHints(hints: readonly KeyHint[]): string {
  return hints.map((h) => `${h.key} ${h.hint}`).join(' · ');
}
