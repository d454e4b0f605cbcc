import { useEffect, useState } from 'react';
import { Text } from 'ink';
import { useTheme } from '../tui/context.js';

/** 100 ms: the usual pace of a terminal spinner; slower looks stuck, faster looks anxious. */
export const SPINNER_MS = 100;

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
