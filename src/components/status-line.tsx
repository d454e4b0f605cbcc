import { Box, Text } from 'ink';
import { useShallow } from 'zustand/react/shallow';
import { useSession, useTui, useUi } from '../tui/context.js';
import { lastCommittedIteration } from '../tui/iteration-rows.js';
import { formatHints, keyHints } from '../tui/key-hints.js';
import { Elapsed } from './elapsed.js';

/** Props of the status line. */
export interface StatusLineProps {
  width: number;
  /** Leave out the agent chain (narrow terminals). Default: false. */
  compact?: boolean;
}

/** Where the pass rate's counts come from, shown when it is not a report (less to trust). */
const COUNTS_FROM = { report: 'report', output: 'output', 'exit-code': 'exit code only' } as const;

/**
 * The bottom line: session id, agent chain and elapsed time, then either the message of the last key
 * (why it did nothing) or the keys that matter now, generated from the key table.
 */
export function StatusLine({ width, compact = false }: StatusLineProps) {
  const { controls, theme } = useTui();
  const sessionId = useSession((s) => s.sessionId);
  const chain = useSession((s) => s.chain);
  const countsFrom = useSession((s) => s.results?.source ?? null);
  const facts = useSession(
    useShallow((s) => ({
      awaitingApproval: s.awaitingApproval !== null,
      done: s.done !== null,
      paused: s.paused,
      canRollback: lastCommittedIteration(s.state?.iterations ?? []) !== undefined,
      hasIterations: (s.state?.iterations.length ?? 0) > 0,
    })),
  );
  const ui = useUi(useShallow((s) => ({ focus: s.focus, follow: s.follow, help: s.help, detail: s.detail, confirm: s.confirm, stopping: s.stopping })));
  const message = useUi((s) => s.message);
  const hints = formatHints(keyHints({ ui, watch: controls === null, ...facts }));

  return (
    <Box width={width} height={1}>
      <Box flexShrink={0}>
        <Text dimColor>
          {sessionId ?? 'starting'}
          {!compact && chain.length > 0 ? ` · ${chain.join(' → ')}` : ''}
          {!compact && countsFrom && countsFrom !== 'report' ? ` · counts: ${COUNTS_FROM[countsFrom]}` : ''}
          {controls === null ? ' · watch' : ''}
          {facts.paused && !facts.done ? ' · paused' : ''} ·{' '}
        </Text>
        <Elapsed />
        <Text> │ </Text>
      </Box>
      <Box flexGrow={1} flexShrink={1}>
        {message ? (
          <Text wrap="truncate-end" color={message.tone === 'warn' ? theme.warn : undefined} bold={message.tone === 'warn'}>
            {message.text}
          </Text>
        ) : (
          <Text wrap="truncate-end">{hints}</Text>
        )}
      </Box>
    </Box>
  );
}
