import { Box, Text } from 'ink';
import { useSession, useTheme } from '../tui/context.js';

/** The engine's latest word (a commit, a rollback, a warning), on one line. */
export function LogLine({ width }: { width: number }) {
  const theme = useTheme();
  const last = useSession((s) => s.logs.at(-1));
  // A watched session sends no log events: say when its state last changed rather than waiting for events.
  const updated = useSession((s) => s.state?.updated_at ?? null);
  const idle = updated
    ? `· session last written at ${new Date(updated).toLocaleTimeString('en-GB')}`
    : '· no events yet';
  const color = last?.level === 'error' ? theme.bad : last?.level === 'warn' ? theme.warn : undefined;
  return (
    <Box width={width} height={1}>
      <Text wrap="truncate-end" dimColor={!last || last.level === 'info'} color={color}>
        {last ? `${last.level === 'info' ? '·' : '!'} ${last.message}` : idle}
      </Text>
    </Box>
  );
}
