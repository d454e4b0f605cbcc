import { PHASES } from '../engine/events.js';
import type { SessionView } from '../state/store.js';

/** Why a running step is standing still: the user paused the loop, or it waits for approval. */
export type Hold = 'paused' | 'approval' | null;

type ActivitySource = Pick<SessionView, 'phases' | 'paused' | 'done' | 'awaitingApproval'>;

/** What holds the loop, if anything (nothing once it is done). */
export function holdOf(view: ActivitySource): Hold {
  if (view.done) return null;
  if (view.awaitingApproval) return 'approval';
  return view.paused ? 'paused' : null;
}

/** True while a step runs and nothing holds the loop: only then does anything on screen tick. */
export function isWorking(view: ActivitySource): boolean {
  return !view.done && holdOf(view) === null && PHASES.some((p) => view.phases[p].status === 'running');
}
