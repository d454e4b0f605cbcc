import { Text } from 'ink';
import type { PhaseStatus } from '../engine/events.js';
import type { Hold } from '../tui/activity.js';
import { useTheme } from '../tui/context.js';
import { Spinner } from './spinner.js';

/** Props of a step's mark. */
export interface StatusMarkProps {
  status: PhaseStatus;
  /** What holds a running step: it shows ‖ (paused) or ? (awaiting approval) instead of a spinner, so nothing ticks. */
  hold?: Hold;
  /** A running step whose own steps spin below it: a still `▸`, so one spinner ticks and one line changes. Default: false. */
  still?: boolean;
}

/** The mark before a step: ○ pending, a spinner while running, ✓ done, ✗ failed, – skipped. */
export function StatusMark({ status, hold = null, still = false }: StatusMarkProps) {
  const theme = useTheme();
  if (status !== 'running') return <Text color={theme.status[status]}>{theme.mark[status]}</Text>;
  if (hold) return <Text color={theme.warn}>{hold === 'paused' ? '‖' : '?'}</Text>;
  if (still) return <Text color={theme.status.running}>▸</Text>;
  return <Spinner />;
}
