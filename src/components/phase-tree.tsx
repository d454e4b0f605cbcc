import { Box, Text } from 'ink';
import { useShallow } from 'zustand/react/shallow';
import { PHASES, type Phase } from '../engine/events.js';
import { holdOf } from '../tui/activity.js';
import { useSession } from '../tui/context.js';
import {
  currentIteration,
  currentIterationLabel,
  iterationMark,
  PHASE_NAMES,
  stepAgentText,
} from '../tui/phase-model.js';
import { GenRows } from './gen-rows.js';
import { TeamCompactRows } from './team-compact.js';
import { TeamRows } from './team-rows.js';
import { SectionTitle } from './section-title.js';
import { StatusMark } from './status-mark.js';

/** A phase's name with the engine's detail, unless the detail only repeats the name. */
function withDetail(name: string, detail: string | undefined, separator: string): string {
  if (!detail || detail.toLowerCase().startsWith(name.toLowerCase()))
    return detail && detail.length > name.length ? detail.charAt(0).toUpperCase() + detail.slice(1) : name;
  return `${name}${separator}${detail}`;
}

/** Props of the phase tree. */
export interface PhaseTreeProps {
  width: number;
  /** Fold the tree into two lines: the current iteration, then every step's mark. Default: false. */
  compact?: boolean;
}

function Row({
  indent,
  phase,
  label,
  detail,
  width,
  still = phase === 'iteration',
}: {
  indent: number;
  phase: Phase | 'iteration';
  label: string;
  detail?: string;
  width: number;
  /** The iteration's mark stays still: its running step spins. */
  still?: boolean;
}) {
  const view = useSession(
    useShallow((s) => ({ phases: s.phases, phaseIteration: s.phaseIteration, state: s.state, hold: holdOf(s) })),
  );
  const status = phase === 'iteration' ? iterationMark(view) : view.phases[phase].status;
  // The engine's detail often starts with the phase's own name ("final validation (full suite)").
  const extra =
    detail && detail.toLowerCase().startsWith(label.toLowerCase()) ? detail.slice(label.length).trim() : detail;
  return (
    <Box width={width} height={1}>
      <Text wrap="truncate-end">
        {' '.repeat(indent)}
        <StatusMark status={status} hold={view.hold} still={still} /> <Text bold={status === 'running'}>{label}</Text>
        {extra ? <Text dimColor> {extra}</Text> : null}
      </Text>
    </Box>
  );
}

/**
 * The pipeline's phases with a mark each (pending, running, done, failed, skipped), the current
 * iteration nested under the fix cycle with its own steps and the agents working on them.
 */
export function PhaseTree({ width, compact = false }: PhaseTreeProps) {
  const view = useSession(
    useShallow((s) => ({
      phases: s.phases,
      phaseIteration: s.phaseIteration,
      state: s.state,
      strategy: s.strategy,
      results: s.results,
      paused: s.paused,
      done: s.done,
      agent: s.agent,
      agentFailures: s.agentFailures,
      hold: holdOf(s),
    })),
  );
  const label = currentIterationLabel(view);
  const team = useSession((s) => Object.keys(s.teamTasks).length > 0);
  if (compact && team) return <TeamCompactRows width={width} />;
  if (compact) {
    // One line for what runs now: a whole-suite phase when one runs, else the current iteration.
    const suitePhase = (['test', 'validation', 'completion'] as const).find((p) => view.phases[p].status === 'running');
    const first: Phase | 'iteration' =
      suitePhase ?? (view.done ? 'completion' : currentIteration(view) === 0 ? 'test' : 'iteration');
    const headline =
      first === 'iteration' ? label : withDetail(PHASE_NAMES[first].long, view.phases[first].detail, ': ');
    return (
      <Box flexDirection="column" width={width}>
        {/* The marks row below spins for the running step: the headline's mark stays still. */}
        <Row indent={0} phase={first} label={headline} width={width} still />
        <Box width={width} height={1}>
          <Text wrap="truncate-end">
            {PHASES.map((p, i) => (
              <Text key={p}>
                {i > 0 ? ' ' : ''}
                <StatusMark status={view.phases[p].status} hold={view.hold} />
                <Text dimColor={view.phases[p].status === 'pending'}>{PHASE_NAMES[p].short}</Text>
              </Text>
            ))}
          </Text>
        </Box>
      </Box>
    );
  }
  const detail = (phase: Phase) => view.phases[phase].detail;
  const withAgent = (phase: 'analysis' | 'fix') =>
    [detail(phase), stepAgentText(view, phase)].filter(Boolean).join(' · ');
  return (
    <Box flexDirection="column" width={width}>
      <SectionTitle title="Phases" width={width} />
      <GenRows width={width} />
      <TeamRows width={width} />
      <Row indent={0} phase="test" label={PHASE_NAMES.test.long} detail={detail('test')} width={width} />
      <Row indent={0} phase="iteration" label={label} width={width} />
      <Row indent={4} phase="analysis" label={PHASE_NAMES.analysis.long} detail={withAgent('analysis')} width={width} />
      <Row indent={4} phase="fix" label={PHASE_NAMES.fix.long} detail={withAgent('fix')} width={width} />
      <Row indent={4} phase="retest" label="Re-test" detail={detail('retest')} width={width} />
      <Row
        indent={0}
        phase="validation"
        label={PHASE_NAMES.validation.long}
        detail={detail('validation')}
        width={width}
      />
      <Row
        indent={0}
        phase="completion"
        label={PHASE_NAMES.completion.long}
        detail={detail('completion')}
        width={width}
      />
    </Box>
  );
}
