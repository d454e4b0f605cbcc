import { Box, Text } from 'ink';
import { useSession, useTui } from '../tui/context.js';
import { StrategyBadge } from './strategy-badge.js';

/**
 * The top line: the title (marked DEMO for the demo), the session id when there is room, and the
 * strategy badge with its reason. When narrow, the title gives way so the badge always shows.
 */
export function Header({ width, compact }: { width: number; compact: boolean }) {
  const { title: fixedTitle, demo, theme, follow } = useTui();
  const followed = useSession((s) => s.sessionId);
  // Following: the session shown is the title, since it changes; narrow panes have no room for both.
  const title = follow ? (followed ?? 'waiting for a session') : fixedTitle;
  const sessionId = follow ? null : followed;
  const tag = demo && !title.includes('DEMO') ? ' DEMO ' : '';
  // Following, the title is the session shown: it gets the room, the badge what is left.
  const room = follow ? width - 12 : compact ? Math.floor(width / 3) : Math.floor(width / 2);
  const titleWidth = Math.min(title.length + tag.length + 1, room);
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
      {/* A column that never shrinks: a shortened session id never runs into the badge (`WFS-…[aggressive]`). */}
      <Box width={1} flexShrink={0} />
      <Box flexGrow={1} flexShrink={1} justifyContent={compact ? 'flex-start' : 'flex-end'}>
        <StrategyBadge />
      </Box>
    </Box>
  );
}
