import { Box, Text } from 'ink';
import type { Outcome } from '../engine/events.js';
import { useSession, useTheme } from '../tui/context.js';
import { formatPercent } from '../tui/iteration-rows.js';

const HEADLINES: Record<Outcome, { mark: string; text: string; tone: 'good' | 'bad' | 'warn' }> = {
  success: { mark: '✓', text: 'Success', tone: 'good' },
  partial_success: { mark: '✓', text: 'Partial success', tone: 'good' },
  awaiting_approval: { mark: '?', text: 'Partial success awaiting approval', tone: 'warn' },
  failure: { mark: '✗', text: 'Failure', tone: 'bad' },
  interrupted: { mark: '‖', text: 'Interrupted', tone: 'warn' },
  error: { mark: '✗', text: 'Error', tone: 'bad' },
};

/** Two lines with how the session ended, why, and where to look next. */
export function DoneBanner({ width }: { width: number }) {
  const theme = useTheme();
  const done = useSession((s) => s.done);
  const sessionId = useSession((s) => s.sessionId);
  if (!done) return null;
  const head = HEADLINES[done.outcome];
  const color = head.tone === 'good' ? theme.good : head.tone === 'bad' ? theme.bad : theme.warn;
  const pass = done.passRate === null ? '' : ` · pass rate ${formatPercent(done.passRate)}`;
  const next =
    done.outcome === 'interrupted' && sessionId
      ? `resume with fixcycle run --resume-session ${sessionId}`
      : done.reportPath
        ? `report: ${done.reportPath}`
        : '';
  return (
    <Box flexDirection="column" width={width}>
      <Text wrap="truncate-end" bold color={color} inverse={!theme.color}>
        {head.mark} {head.text}
        {pass} · exit code {done.exitCode}
      </Text>
      <Text wrap="truncate-end">
        {'  '}
        {done.reason}
        {next ? ` · ${next}` : ''} · q quits
      </Text>
    </Box>
  );
}
