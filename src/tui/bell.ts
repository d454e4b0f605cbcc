import type { StoreApi } from 'zustand/vanilla';
import type { FixcycleStore } from '../state/store.js';

/** The terminal bell: a lone BEL moves no cursor, so it is safe between Ink's frames. */
export const BELL = '\x07';

/**
 * Rings the bell when the session shown ends or starts waiting for a decision (approval), so a user in another
 * window comes back. A session's first read (a watcher opening one that has already ended) does not ring: only
 * changes after it. Returns the function that stops listening.
 */
export function ringOnDecisions(store: StoreApi<FixcycleStore>, stdout: NodeJS.WritableStream): () => void {
  let armedFor: string | null = null;
  let arming: ReturnType<typeof setTimeout> | null = null;
  const arm = (id: string | null) => {
    if (arming) clearTimeout(arming);
    // The events of one read (state, outcome, approval) arrive together: arm once they are in.
    arming = setTimeout(() => {
      arming = null;
      if (store.getState().sessionId === id) armedFor = id;
    }, 0);
  };
  arm(store.getState().sessionId);
  const stop = store.subscribe((next, prev) => {
    if (next.sessionId !== prev.sessionId || (next.state !== null && prev.state === null)) {
      if (next.sessionId !== prev.sessionId) armedFor = null;
      if (armedFor === null) arm(next.sessionId);
      return;
    }
    if (armedFor === null || armedFor !== next.sessionId) return;
    if ((next.done && !prev.done) || (next.awaitingApproval && !prev.awaitingApproval)) stdout.write(BELL);
  });
  return () => {
    if (arming) clearTimeout(arming);
    stop();
  };
}
