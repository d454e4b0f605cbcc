import { Box, Text } from 'ink';
import { useSession, useTui } from '../tui/context.js';
import { StrategyBadge } from './strategy-badge.js';

/**
 * The top line: the title (marked DEMO for the demo), the session id when there is room, and the
 * strategy badge with its reason. When narrow, the title gives way so the badge always shows.
 */
export function Header({ width, compact }: { width: number; compact: boolean }) {
  const { title, demo, theme } = useTui();
  const sessionId = useSession((s) => s.sessionId);
  const tag = demo && !title.includes('DEMO') ? ' DEMO ' : '';
  const titleWidth = Math.min(title.length + tag.length + 1, compact ? Math.floor(width / 3) : Math.floor(width / 2));
  return (
    <Box width={width} height={1}>
      <Box width={titleWidth} flexShrink={0}>
        <Text wrap="truncate-end">
          <Text bold>{title}</Text>
          {tag ? (
            <Text bold color={theme.warn} inverse>
              {tag}
            </Text>
          ) : null}
        </Text>
      </Box>
      {!compact && sessionId ? (
        <Box flexShrink={1}>
          <Text dimColor wrap="truncate-end">
            {' '}
            {sessionId}
          </Text>
        </Box>
      ) : null}
      <Box flexGrow={1} flexShrink={1} justifyContent={compact ? 'flex-start' : 'flex-end'} paddingLeft={1}>
        <StrategyBadge />
      </Box>
    </Box>
  );
}
