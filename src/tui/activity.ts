import { PHASES } from '../engine/events.js';
import type { SessionView } from '../state/store.js';

/** True while a step runs and the loop is neither paused nor done: only then does anything on screen tick. */
export function isWorking(view: Pick<SessionView, 'phases' | 'paused' | 'done'>): boolean {
  return !view.done && !view.paused && PHASES.some((p) => view.phases[p].status === 'running');
}
