import { Box, Text } from 'ink';
import { useSession, useTheme } from '../tui/context.js';

/** Props of the strategy badge. */
export interface StrategyBadgeProps {
  /** Also say, dimmed, why the strategy was chosen. Default: true. */
  withReason?: boolean;
}

/**
 * `[surgical] the last iteration regressed`: the strategy in its own color, in brackets so it reads without
 * color. When narrow, the reason is shortened; the strategy's name never is.
 */
export function StrategyBadge({ withReason = true }: StrategyBadgeProps) {
  const theme = useTheme();
  const live = useSession((s) => s.strategy);
  const saved = useSession((s) => s.state?.selected_strategy);
  const savedReason = useSession((s) => s.state?.strategy_reason);
  const strategy = live?.strategy ?? saved;
  const reason = live?.reason ?? savedReason;
  if (!strategy) return <Text dimColor>[no strategy yet]</Text>;
  return (
    <Box flexDirection="row" minWidth={strategy.length + 2}>
      <Box flexShrink={0}>
        <Text bold color={theme.strategy[strategy]}>
          [{strategy}]
        </Text>
      </Box>
      {withReason && reason ? (
        <Box flexShrink={1} minWidth={0}>
          <Text dimColor wrap="truncate-end">
            {' '}
            {reason}
          </Text>
        </Box>
      ) : null}
    </Box>
  );
}
