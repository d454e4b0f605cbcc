import { Box, Text } from 'ink';
import type { Strategy } from '../engine/types.js';
import { useSession, useTheme } from '../tui/context.js';
import { ellipsize } from '../tui/question-lines.js';

/** Props of the strategy badge. */
export interface StrategyBadgeProps {
  /** Also say, dimmed, why the strategy was chosen. Default: true. */
  withReason?: boolean;
  /** Columns the badge may take: the reason is shortened with `…` to fit (never cut by the terminal). Default: no limit. */
  width?: number;
}

/** The strategy and the reason it was chosen, as the session says (the live event first, else the saved state). */
export function useStrategy(): { strategy: Strategy | undefined; reason: string | undefined } {
  const live = useSession((s) => s.strategy);
  const saved = useSession((s) => s.state?.selected_strategy);
  const savedReason = useSession((s) => s.state?.strategy_reason);
  return { strategy: live?.strategy ?? saved, reason: live?.reason ?? savedReason };
}

/**
 * `[surgical] the last iteration regressed`: the strategy in its own color, in brackets so it reads without
 * color. When narrow, the reason is shortened at a word with `…`; the strategy's name never is.
 */
export function StrategyBadge({ withReason = true, width = Infinity }: StrategyBadgeProps) {
  const theme = useTheme();
  const { strategy, reason } = useStrategy();
  if (!strategy) return <Text dimColor>[no strategy yet]</Text>;
  // `[name]` and the space before the reason; a reason with fewer than 8 columns left says nothing: it goes.
  const room = width - strategy.length - 3;
  const shown = withReason && reason && room >= 8 ? ellipsize(reason, room) : '';
  return (
    <Box flexDirection="row" flexShrink={0}>
      <Text bold color={theme.strategy[strategy]}>
        [{strategy}]
      </Text>
      {shown ? <Text dimColor> {shown}</Text> : null}
    </Box>
  );
}
