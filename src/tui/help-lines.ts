import type { LoopControls } from '../engine/events.js';
import type { SessionView } from '../state/store.js';
import type { Command } from './key-bindings.js';
import { KEY_BINDINGS } from './key-bindings.js';
import type { Theme } from './theme.js';

/** Where the help is shown: which keys act there. */
export interface HelpPlace {
  /** `fixcycle team`: its pipeline keys act. Default: false. */
  team?: boolean;
  /** Keys reach a loop that is still working (approve, roll back, pause, the budget). Default: true. */
  live?: boolean;
  /** The session waits for approval: `a` acts. Default: true. */
  awaitingApproval?: boolean;
}

const TEAM_ONLY = new Set<Command>(['pipeline-targeted', 'pipeline-standard', 'pipeline-comprehensive']);
const LIVE_ONLY = new Set<Command>(['rollback', 'pause', 'more-iterations', 'fewer-iterations']);
// y and n act only in a question, and a question names its own keys.
const QUESTION_ONLY = new Set<Command>(['yes', 'no']);

/** Where the help is opened from: the session shown, the controls keys reach and the program's title. */
export function helpPlace(
  session: Pick<SessionView, 'done' | 'awaitingApproval'>,
  controls: LoopControls | null,
  title: string,
): HelpPlace {
  return {
    team: title === 'fixcycle team',
    live: controls !== null && !controls.unreachable?.() && session.done === null,
    awaitingApproval: session.awaitingApproval !== null,
  };
}

/** Whether a key of the table acts at `place`. */
function acts(command: Command, place: HelpPlace): boolean {
  if (QUESTION_ONLY.has(command)) return false;
  if (TEAM_ONLY.has(command)) return place.team === true;
  if (command === 'approve') return place.live !== false && place.awaitingApproval !== false;
  if (LIVE_ONLY.has(command)) return place.live !== false;
  return true;
}

/** The help overlay's lines: the keys of the table that act here with what they do, then what the marks mean. */
export function helpLines(theme: Theme, place: HelpPlace = {}): string[] {
  const bindings = KEY_BINDINGS.filter((b) => acts(b.command, place));
  const width = Math.max(...bindings.map((b) => b.label.length)) + 2;
  return [
    ...bindings.map((b) => `${b.label.padEnd(width)}${b.description}`),
    '',
    `${theme.mark.pending} pending  ${theme.spinner[0]} running  ‖ paused  ? awaiting approval  ${theme.mark.done} done  ${theme.mark.failed} failed  ${theme.mark.skipped} skipped`,
    'Strategies: [conservative] small, safe fixes · [aggressive] one fix for many similar failures · [surgical] after a regression, the narrowest fix',
  ];
}
