import { Box, Text } from 'ink';
import { useSession, useTheme } from '../tui/context.js';

/** The engine's latest word (a commit, a rollback, a warning), on one line. */
export function LogLine({ width }: { width: number }) {
  const theme = useTheme();
  const last = useSession((s) => s.logs.at(-1));
  const color = last?.level === 'error' ? theme.bad : last?.level === 'warn' ? theme.warn : undefined;
  return (
    <Box width={width} height={1}>
      <Text wrap="truncate-end" dimColor={!last || last.level === 'info'} color={color}>
        {last ? `${last.level === 'info' ? '·' : '!'} ${last.message}` : '· no events yet'}
      </Text>
    </Box>
  );
}
