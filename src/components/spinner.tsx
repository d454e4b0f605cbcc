import { useSyncExternalStore } from 'react';
import { Text } from 'ink';
import { useTheme } from '../tui/context.js';

/**
 * 200 ms (5 frames a second): calm, yet clearly alive. Each frame is a full Ink redraw (10-15 ms at 120x40),
 * so the pace is also what a running step costs in CPU on top of its own work: at 8 frames a second the TUI
 * took 12% of a core while a step ran, at 5 about 9%.
 */
export const SPINNER_MS = 200;

// One clock for every spinner on screen: the phase tree shows two at once (the iteration and its step),
// and a timer each would double the redraws.
let tick = 0;
let timer: ReturnType<typeof setInterval> | null = null;
const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  timer ??= setInterval(() => {
    tick++;
    for (const notify of listeners) notify();
  }, SPINNER_MS);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer) {
      clearInterval(timer);
      timer = null;
    }
  };
}

const currentTick = (): number => tick;

/** The mark of a running step. The shared clock runs only while some spinner is mounted, that is while a step runs. */
export function Spinner() {
  const theme = useTheme();
  const frame = useSyncExternalStore(subscribe, currentTick) % theme.spinner.length;
  return <Text color={theme.status.running}>{theme.spinner[frame]}</Text>;
}
