import { Box, Text } from 'ink';
import { useShallow } from 'zustand/react/shallow';
import { useSession, useTui, useUi } from '../tui/context.js';
import { fitHints, splitHints } from '../tui/footer-hints.js';
import { currentFailures } from '../tui/failure-lines.js';
import { lastCommittedIteration } from '../tui/iteration-rows.js';
import { formatHints, keyHints } from '../tui/key-hints.js';
import { useIterationClock } from '../tui/use-iteration-clock.js';
import { Elapsed } from './elapsed.js';
import { useWaitCountdown } from './wait-countdown.js';

/** Props of the status line. */
export interface StatusLineProps {
  width: number;
  /** Leave out the agent chain (narrow terminals). Default: false. */
  compact?: boolean;
}

/** Where the pass rate's counts come from, shown when it is not a report (less to trust). */
const COUNTS_FROM = { report: 'report', output: 'output', 'exit-code': 'exit code only' } as const;
/** ` │ ` after the session part. */
const BAR = 3;
/** Columns kept for the elapsed time (`59m 59s`) and ` │ ` when fitting the hints. */
const ELAPSED_AND_BAR = 7 + BAR;
/** The session part never shrinks below this for a message: enough to tell which session it is. */
const MIN_LEFT = 12;

/**
 * The bottom line: session id, agent chain and elapsed time, then the message of the last key (why it did
 * nothing), the rate-limit countdown, or the keys that matter now; `? help · q quit` always end it, whole,
 * at any width: the other hints give way first (whole, never cut), then the session id is shortened.
 */
export function StatusLine({ width, compact = false }: StatusLineProps) {
  const { controls, theme } = useTui();
  const sessionId = useSession((s) => s.sessionId);
  const chain = useSession((s) => s.chain);
  const countsFrom = useSession((s) => s.results?.source ?? null);
  const notRun = useSession((s) =>
    ((s.state?.parts_not_run as { name: string }[] | undefined) ?? []).map((p) => p.name).join(', '),
  );
  const countdown = useWaitCountdown();
  const clock = useIterationClock(compact);
  const facts = useSession(
    useShallow((s) => ({
      awaitingApproval: s.awaitingApproval !== null,
      done: s.done !== null,
      paused: s.paused,
      canRollback: lastCommittedIteration(s.state?.iterations ?? []) !== undefined,
      hasIterations: (s.state?.iterations.length ?? 0) > 0,
      hasFailureGroups: currentFailures(s).failures.length > 0,
      choosing: s.teamChoice !== null,
      fixesWaiting: s.handback?.status === 'waiting',
    })),
  );
  const ui = useUi(
    useShallow((s) => ({
      focus: s.focus,
      follow: s.follow,
      help: s.help,
      detail: s.detail,
      failureDetail: s.failureDetail,
      confirm: s.confirm,
      stopping: s.stopping,
    })),
  );
  const message = useUi((s) => s.message);
  // Watching only: no controls, or nothing drives the session the keys would act on.
  const watching = controls === null || Boolean(controls.unreachable?.());
  const { kept, rest } = splitHints(
    keyHints({ ui, watch: watching, ...facts, fixesWaiting: facts.fixesWaiting && Boolean(controls?.takeFixes) }),
  );
  const keptText = formatHints(kept);

  const left = [
    sessionId ?? 'starting',
    !compact && chain.length > 0 ? chain.join(' → ') : '',
    !compact && countsFrom && countsFrom !== 'report' ? `counts: ${COUNTS_FROM[countsFrom]}` : '',
    notRun ? `not run here: ${notRun}` : '',
    watching ? 'watch' : '',
    facts.paused && !facts.done ? 'paused' : '',
    clock,
  ]
    .filter(Boolean)
    .join(' · ');
  const leftWidth = left.length + 3 + ELAPSED_AND_BAR;
  const keptWidth = keptText ? keptText.length + 3 : 0;
  const hints = formatHints(fitHints(rest, width - leftWidth - keptWidth));
  // A message or the countdown says something the user needs now: it may shorten the session id, never the kept keys.
  const urgent = message ? message.text.length : countdown ? countdown.length : 0;
  const middleWidth = urgent
    ? Math.min(urgent, Math.max(0, width - BAR - keptWidth - Math.min(leftWidth - BAR, MIN_LEFT)))
    : hints.length;
  const middle = middleWidth > 0;

  return (
    <Box width={width} height={1}>
      <Box flexShrink={1} minWidth={0}>
        <Text wrap="truncate-end">
          <Text dimColor>{left} · </Text>
          <Elapsed />
        </Text>
      </Box>
      <Box flexShrink={0}>
        <Text> │ </Text>
      </Box>
      {middle ? (
        <Box flexShrink={0} width={middleWidth}>
          {message ? (
            <Text
              wrap="truncate-end"
              color={message.tone === 'warn' ? theme.warn : undefined}
              bold={message.tone === 'warn'}
            >
              {message.text}
            </Text>
          ) : countdown ? (
            <Text wrap="truncate-end" color={theme.warn}>
              {countdown}
            </Text>
          ) : (
            <Text wrap="truncate-end">{hints}</Text>
          )}
        </Box>
      ) : null}
      {keptText ? (
        <Box flexShrink={0}>
          <Text>
            {middle ? ' · ' : ''}
            {keptText}
          </Text>
        </Box>
      ) : null}
    </Box>
  );
}
