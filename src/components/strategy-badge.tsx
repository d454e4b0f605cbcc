import { Text } from 'ink';
import { useSession, useTheme } from '../tui/context.js';

/** Props of the strategy badge. */
export interface StrategyBadgeProps {
  /** Also say, dimmed, why the strategy was chosen. Default: true. */
  withReason?: boolean;
}

/** `[surgical] the last iteration regressed`: the strategy in its own color, in brackets so it reads without color. */
export function StrategyBadge({ withReason = true }: StrategyBadgeProps) {
  const theme = useTheme();
  const live = useSession((s) => s.strategy);
  const saved = useSession((s) => s.state?.selected_strategy);
  const savedReason = useSession((s) => s.state?.strategy_reason);
  const strategy = live?.strategy ?? saved;
  const reason = live?.reason ?? savedReason;
  if (!strategy) return <Text dimColor>[no strategy yet]</Text>;
  return (
    <Text wrap="truncate-end">
      <Text bold color={theme.strategy[strategy]}>
        [{strategy}]
      </Text>
      {withReason && reason ? <Text dimColor> {reason}</Text> : null}
    </Text>
  );
}
