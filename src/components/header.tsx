import { Box, Text } from 'ink';
import { useTui } from '../tui/context.js';
import { useSession } from '../tui/context.js';
import { ellipsize } from '../tui/question-lines.js';
import { StrategyBadge, useStrategy } from './strategy-badge.js';

// 12: enough of a session id (`WFS-test-de…`) to tell it from the others.
const MIN_SESSION_ID = 12;

/**
 * The top line: the title (marked DEMO for the demo), the session id when there is room, and the
 * strategy badge with its reason. When narrow, the reason is shortened first (with `…`), then the session id;
 * the title gives way so the badge always shows. Widths are counted here, so nothing is cut by the terminal.
 */
export function Header({ width, compact }: { width: number; compact: boolean }) {
  const { title: fixedTitle, demo, theme, follow } = useTui();
  const followed = useSession((s) => s.sessionId);
  const { strategy, reason } = useStrategy();
  // Following: the session shown is the title, since it changes; narrow panes have no room for both.
  const title = follow ? (followed ?? 'waiting for a session') : fixedTitle;
  const sessionId = follow || compact ? null : followed;
  const tag = demo && !title.includes('DEMO') ? ' DEMO ' : '';
  // Following, the title is the session shown: it gets the room, the badge what is left.
  const room = follow ? width - 12 : compact ? Math.floor(width / 3) : Math.floor(width / 2);
  const titleWidth = Math.min(title.length + tag.length + 1, room);
  const name = strategy ? strategy.length + 2 : '[no strategy yet]'.length;
  const badgeFull = name + (strategy && reason ? reason.length + 1 : 0);
  // A column that never shrinks sits before the badge: a shortened session id never runs into it.
  let left = width - titleWidth - 1;
  let id = '';
  if (sessionId) {
    const wanted = Math.max(Math.min(sessionId.length, MIN_SESSION_ID), left - badgeFull - 1);
    id = ellipsize(sessionId, Math.min(sessionId.length, wanted, left - name - 1));
    left -= id.length + 1;
  }
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
      {id ? (
        <Box flexShrink={0}>
          <Text dimColor> {id}</Text>
        </Box>
      ) : null}
      <Box width={1} flexShrink={0} />
      <Box flexGrow={1} justifyContent={compact ? 'flex-start' : 'flex-end'}>
        <StrategyBadge width={Math.max(0, left)} />
      </Box>
    </Box>
  );
}
