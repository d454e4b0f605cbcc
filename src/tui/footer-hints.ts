import type { Command } from './key-bindings.js';
import { formatHints, type KeyHint } from './key-hints.js';

/** The two hints a newcomer needs: never cut, at any width. */
export const KEPT_HINTS: readonly Command[] = ['help', 'quit'];

/** ` · ` between hints. */
const SEPARATOR = 3;

/** The footer's hints split into those always shown and the rest, which give way when the line is narrow. */
export function splitHints(hints: readonly KeyHint[]): { kept: KeyHint[]; rest: KeyHint[] } {
  return {
    kept: hints.filter((h) => KEPT_HINTS.includes(h.command)),
    rest: hints.filter((h) => !KEPT_HINTS.includes(h.command)),
  };
}

/** As many whole hints, in order of importance, as fit in `room` columns; a hint is never shown cut. */
export function fitHints(hints: readonly KeyHint[], room: number): KeyHint[] {
  const shown: KeyHint[] = [];
  let used = 0;
  for (const h of hints) {
    // Key labels and words are one column per character (ASCII and arrows).
    const width = formatHints([h]).length + (shown.length ? SEPARATOR : 0);
    if (used + width > room) break;
    shown.push(h);
    used += width;
  }
  return shown;
}
