import { useEffect, useState } from 'react';
import { Text } from 'ink';
import { useTheme } from '../tui/context.js';

/**
 * 125 ms (8 frames a second): calm, yet clearly alive. Each frame is a full Ink redraw (about 10 ms at
 * 120x40), so the pace is also what a running step costs in CPU on top of its own work.
 */
export const SPINNER_MS = 125;

/** The mark of a running step. Its timer lives only while it is mounted, that is while a step runs. */
export function Spinner() {
  const theme = useTheme();
  const [frame, setFrame] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setFrame((f) => (f + 1) % theme.spinner.length), SPINNER_MS);
    return () => clearInterval(timer);
  }, [theme.spinner.length]);
  return <Text color={theme.status.running}>{theme.spinner[frame]}</Text>;
}
