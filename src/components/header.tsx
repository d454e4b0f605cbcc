import { Box, Text } from 'ink';
import { useSession, useTui } from '../tui/context.js';
import { StrategyBadge } from './strategy-badge.js';

/** The top line: the title (and DEMO), the session id when there is room, the strategy badge and its reason. */
export function Header({ width, compact }: { width: number; compact: boolean }) {
  const { title, demo, theme } = useTui();
  const sessionId = useSession((s) => s.sessionId);
  return (
    <Box width={width} height={1}>
      <Box flexShrink={0}>
        <Text bold>{title}</Text>
        {demo ? (
          <Text bold color={theme.warn} inverse={!theme.color}>
            {' DEMO '}
          </Text>
        ) : null}
        {!compact && sessionId ? <Text dimColor> {sessionId}</Text> : null}
        <Text> </Text>
      </Box>
      <Box flexGrow={1} flexShrink={1} justifyContent={compact ? 'flex-start' : 'flex-end'}>
        <StrategyBadge />
      </Box>
    </Box>
  );
}
