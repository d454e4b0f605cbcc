import { Box, Text } from 'ink';
import type { Outcome } from '../engine/events.js';
import { useSession, useTheme, useTui } from '../tui/context.js';
import { formatPercent } from '../tui/iteration-rows.js';
import { ellipsize } from '../tui/question-lines.js';
import { handbackLines } from '../tui/handback-line.js';

// The key that leaves stays whole however narrow: the reason shortens before it.
const QUITS = ' · q quits';

const HEADLINES: Record<Outcome, { mark: string; text: string; tone: 'good' | 'bad' | 'warn' }> = {
  success: { mark: '✓', text: 'Success', tone: 'good' },
  partial_success: { mark: '✓', text: 'Partial success', tone: 'good' },
  awaiting_approval: { mark: '?', text: 'Partial success awaiting approval', tone: 'warn' },
  failure: { mark: '✗', text: 'Failure', tone: 'bad' },
  interrupted: { mark: '‖', text: 'Interrupted', tone: 'warn' },
  error: { mark: '✗', text: 'Error', tone: 'bad' },
};

/** The reason and where to look next in `room` columns: the reason shortens first, the path or command stays whole. */
function reasonLine(reason: string, next: string, room: number): string {
  const tail = next ? ` · ${next}` : '';
  if (reason.length + tail.length <= room) return `${reason}${tail}`;
  // 12: room for a few words of the reason, below which it says nothing.
  if (room - tail.length >= 12) return `${ellipsize(reason, room - tail.length)}${tail}`;
  return ellipsize(`${reason}${tail}`, Math.max(1, room));
}

/** How the session ended, why, and where to look next; then where its fixes went (or the command that takes them). */
export function DoneBanner({ width }: { width: number }) {
  const theme = useTheme();
  const done = useSession((s) => s.done);
  const sessionId = useSession((s) => s.sessionId);
  const { controls } = useTui();
  const handback = handbackLines(
    useSession((s) => s.handback),
    Boolean(controls?.takeFixes),
  );
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
        {reasonLine(done.reason, next, width - 2 - QUITS.length)}
        {QUITS.slice(0, 3)}
        <Text bold>q</Text>
        {QUITS.slice(4)}
      </Text>
      {handback ? (
        <Text wrap="truncate-end" color={handback.tone === 'good' ? theme.good : theme.warn}>
          {'  '}
          {handback.text}
        </Text>
      ) : null}
      {/* The command wraps rather than lose its end: it is what the user copies. */}
      {handback?.take ? <Text wrap="wrap">{`    ${handback.take}`}</Text> : null}
    </Box>
  );
}
