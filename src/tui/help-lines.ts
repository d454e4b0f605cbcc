import { KEY_BINDINGS } from './key-bindings.js';
import type { Theme } from './theme.js';

/** Where the help is shown: which keys act there. */
export interface HelpPlace {
  /** `fixcycle team`: its pipeline keys act. Default: false. */
  team?: boolean;
}

const TEAM_ONLY = new Set(['pipeline-targeted', 'pipeline-standard', 'pipeline-comprehensive']);

/** The help overlay's lines: the keys of the table that act here with what they do, then what the marks mean. */
export function helpLines(theme: Theme, place: HelpPlace = {}): string[] {
  const bindings = KEY_BINDINGS.filter((b) => place.team || !TEAM_ONLY.has(b.command));
  const width = Math.max(...bindings.map((b) => b.label.length)) + 2;
  return [
    ...bindings.map((b) => `${b.label.padEnd(width)}${b.description}`),
    '',
    `${theme.mark.pending} pending  ${theme.spinner[0]} running  ‖ paused  ? awaiting approval  ${theme.mark.done} done  ${theme.mark.failed} failed  ${theme.mark.skipped} skipped`,
    'Strategies: [conservative] small, safe fixes · [aggressive] one fix for many similar failures · [surgical] after a regression, the narrowest fix',
  ];
}
