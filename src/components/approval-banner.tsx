import { Box, Text } from 'ink';
import { useSession, useTui } from '../tui/context.js';
import { formatPercent, lastCommittedIteration } from '../tui/iteration-rows.js';

/** Two lines asking the user to approve a partial success, with what approving means and the keys. */
export function ApprovalBanner({ width }: { width: number }) {
  const { controls, theme } = useTui();
  const awaiting = useSession((s) => s.awaitingApproval);
  const sessionId = useSession((s) => s.sessionId);
  const canRollBack = useSession((s) => lastCommittedIteration(s.state?.iterations ?? []) !== undefined);
  if (!awaiting) return null;
  const count = awaiting.failures.length;
  const left = `${count} low-criticality failure${count === 1 ? '' : 's'} left`;
  const keys =
    controls === null
      ? `Watch mode: approve in the terminal that runs the loop, or fixcycle run --resume-session ${sessionId ?? '<id>'} --yes`
      : `a approves and finishes${canRollBack ? ' · r rolls back the last fix' : ''} · q leaves (the session stays resumable)`;
  return (
    <Box flexDirection="column" width={width}>
      <Text wrap="truncate-end" bold color={theme.warn} inverse={!theme.color}>
        ? Partial success awaiting approval: pass rate {formatPercent(awaiting.passRate)}, {left}
      </Text>
      <Text wrap="truncate-end">
        {'  '}
        {keys}
      </Text>
    </Box>
  );
}
