import { Box } from 'ink';
import { useShallow } from 'zustand/react/shallow';
import type { SessionView } from '../state/store.js';
import { useSession } from '../tui/context.js';
import { TreeLine as Line } from './tree-line.js';

type Mark = 'pending' | 'running' | 'done' | 'failed' | 'skipped';
const MARK: Record<string, Mark> = {
  pending: 'pending',
  running: 'running',
  completed: 'done',
  failed: 'failed',
  skipped: 'skipped',
};
const BOARD_LINES = 3;

/** `[██████░░░░]` for `pct` of 100, 10 cells. */
export function coverageBar(pct: number | null): string {
  const filled = pct === null ? 0 : Math.max(0, Math.min(10, Math.round(pct / 10)));
  return `[${'█'.repeat(filled)}${'░'.repeat(10 - filled)}]`;
}

function waves(tasks: SessionView['teamTasks']): number[] {
  return [...new Set(Object.values(tasks).map((t) => t.wave))].sort((a, b) => a - b);
}

/** How many rows TeamRows draws, for the layout. */
export function teamRowCount(
  tasks: SessionView['teamTasks'],
  coverage: SessionView['teamCoverage'],
  board: SessionView['teamBoard'],
): number {
  const n = Object.keys(tasks).length;
  if (n === 0) return 0;
  return (
    waves(tasks).length +
    n +
    Object.keys(coverage).length +
    (board ? 1 + Math.min(BOARD_LINES, board.latest.length) : 0)
  );
}

/**
 * `fixcycle team`'s part of the phase tree: the waves and their tasks with role, layer and status, a coverage bar
 * per layer against its target with the GC round, and the discovery board's latest entries. Nothing for other commands.
 */
export function TeamRows({ width }: { width: number }) {
  const { tasks, coverage, board } = useSession(
    useShallow((s) => ({ tasks: s.teamTasks, coverage: s.teamCoverage, board: s.teamBoard })),
  );
  if (Object.keys(tasks).length === 0) return null;
  const rows = [];
  for (const w of waves(tasks)) {
    const inWave = Object.entries(tasks).filter(([, t]) => t.wave === w);
    const status: Mark = inWave.some(([, t]) => t.status === 'running')
      ? 'running'
      : inWave.every(([, t]) => t.status === 'completed')
        ? 'done'
        : inWave.some(([, t]) => t.status === 'failed')
          ? 'failed'
          : inWave.every(([, t]) => t.status !== 'pending')
            ? 'skipped'
            : 'pending';
    rows.push(<Line key={`w${w}`} indent={0} status={status} label={`Wave ${w}`} width={width} />);
    for (const [id, t] of inWave)
      rows.push(
        <Line
          key={id}
          indent={2}
          status={MARK[t.status] ?? 'pending'}
          label={`${id} ${t.role}${t.layer ? ` ${t.layer}` : ''}`}
          detail={t.detail}
          width={width}
        />,
      );
  }
  for (const [layer, c] of Object.entries(coverage).sort()) {
    const met = c.coverage !== null && c.coverage >= c.target && c.passRate >= 0.95;
    rows.push(
      <Line
        key={`cov-${layer}`}
        indent={0}
        status={met ? 'done' : 'failed'}
        label={`coverage ${layer} ${coverageBar(c.coverage)} ${c.coverage ?? '-'}% / ${c.target}%`}
        detail={`pass ${(c.passRate * 100).toFixed(1)}% · GC round ${c.round}/3`}
        width={width}
      />,
    );
  }
  if (board) {
    rows.push(
      <Line
        key="board"
        indent={0}
        label={`Discovery board: ${board.total}`}
        detail={board.malformed ? `${board.malformed} malformed line(s) skipped` : undefined}
        width={width}
      />,
    );
    for (const l of board.latest.slice(-BOARD_LINES))
      rows.push(<Line key={`b-${l}`} indent={2} label={`· ${l}`} width={width} dim />);
  }
  return <Box flexDirection="column">{rows}</Box>;
}
