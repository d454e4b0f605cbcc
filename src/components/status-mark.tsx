import { Text } from 'ink';
import type { PhaseStatus } from '../engine/events.js';
import { useTheme } from '../tui/context.js';
import { Spinner } from './spinner.js';

/** The mark before a step: ○ pending, a spinner while running, ✓ done, ✗ failed, – skipped. */
export function StatusMark({ status, paused = false }: { status: PhaseStatus; /** A paused loop's running step shows ‖, not a spinner. */ paused?: boolean }) {
  const theme = useTheme();
  if (status === 'running') return paused ? <Text color={theme.warn}>‖</Text> : <Spinner />;
  return <Text color={theme.status[status]}>{theme.mark[status]}</Text>;
}
