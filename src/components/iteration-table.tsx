import { useMemo } from 'react';
import { Box, Text } from 'ink';
import { useSession, useTheme, useUi } from '../tui/context.js';
import {
  formatDelta,
  formatDuration,
  formatPercent,
  formatUsageShort,
  iterationRows,
  type IterationRow,
  type RowOutcome,
} from '../tui/iteration-rows.js';
import type { Theme } from '../tui/theme.js';
import { SectionTitle } from './section-title.js';

/** Props of the iterations table. */
export interface IterationTableProps {
  width: number;
  /** Rows of iterations shown; the cursor's row is always among them. */
  rows: number;
  focused?: boolean;
  /** Fewer, narrower columns and no column header. Default: false. */
  compact?: boolean;
}

interface Column {
  title: string;
  width: number;
  /** Dropped first when the table is too narrow: lower goes sooner. */
  keep: number;
  text(row: IterationRow): string;
  color?(row: IterationRow, theme: Theme): string | undefined;
}

function outcomeColor(outcome: RowOutcome, theme: Theme): string | undefined {
  if (outcome === 'improved' || outcome === 'success' || outcome === 'partial') return theme.good;
  if (outcome === 'rolled-back' || outcome === 'failed') return theme.bad;
  if (outcome === 'stuck' || outcome === 'degraded' || outcome === 'rejected') return theme.warn;
  if (outcome === 'running') return theme.accent;
  return undefined;
}

const agentText = (row: IterationRow) =>
  row.agent ? `${row.agent}${row.fallback ? ' (fallback)' : ''}` : row.tried > 0 ? `none (${row.tried} failed)` : '—';
const testsText = (row: IterationRow) =>
  row.passed !== undefined || row.failed !== undefined ? `${row.passed ?? '?'}/${row.failed ?? '?'}` : '—';

const WIDE: Column[] = [
  { title: '#', width: 4, keep: 9, text: (r) => String(r.iteration) },
  {
    title: 'strategy',
    width: 13,
    keep: 6,
    text: (r) => r.strategy ?? '—',
    color: (r, t) => (r.strategy ? t.strategy[r.strategy] : undefined),
  },
  { title: 'pass', width: 7, keep: 9, text: (r) => formatPercent(r.passRate) },
  {
    title: 'Δ',
    width: 7,
    keep: 8,
    text: (r) => formatDelta(r.delta),
    color: (r, t) => (r.delta === undefined || r.delta === 0 ? undefined : r.delta > 0 ? t.good : t.bad),
  },
  { title: 'pass/fail', width: 10, keep: 4, text: testsText },
  { title: 'time', width: 8, keep: 3, text: (r) => formatDuration(r.durationMs) },
  {
    title: 'agent',
    width: 18,
    keep: 2,
    text: agentText,
    color: (r, t) => (r.fallback || (!r.agent && r.tried > 0) ? t.warn : undefined),
  },
  { title: 'result', width: 24, keep: 9, text: (r) => r.outcomeLabel, color: (r, t) => outcomeColor(r.outcome, t) },
  { title: 'commit', width: 8, keep: 5, text: (r) => r.commit ?? '' },
  { title: 'usage', width: 16, keep: 1, text: (r) => formatUsageShort(r.tokens, r.costUsd) || '—' },
];

const COMPACT: Column[] = [
  { title: '#', width: 3, keep: 9, text: (r) => String(r.iteration) },
  {
    title: 'strategy',
    width: 6,
    keep: 5,
    text: (r) => (r.strategy ? r.strategy.slice(0, 4) : '—'),
    color: (r, t) => (r.strategy ? t.strategy[r.strategy] : undefined),
  },
  { title: 'pass', width: 7, keep: 9, text: (r) => formatPercent(r.passRate) },
  {
    title: 'Δ',
    width: 7,
    keep: 8,
    text: (r) => formatDelta(r.delta),
    color: (r, t) => (r.delta === undefined || r.delta === 0 ? undefined : r.delta > 0 ? t.good : t.bad),
  },
  { title: 'result', width: 24, keep: 9, text: (r) => r.outcomeLabel, color: (r, t) => outcomeColor(r.outcome, t) },
];

/** The columns that fit `width` (2 columns go to the cursor mark), keeping the most telling ones. */
function fitColumns(columns: Column[], width: number): Column[] {
  const kept = [...columns];
  const total = () => kept.reduce((sum, c) => sum + c.width, 2);
  while (total() > width && kept.length > 1) {
    const drop = kept.reduce((low, c) => (c.keep < low.keep ? c : low));
    kept.splice(kept.indexOf(drop), 1);
  }
  return kept;
}

/** The result column takes the room left over; the others keep their width so the rows line up. */
function cellBox(column: Column) {
  const grows = column.title === 'result';
  return {
    width: grows ? undefined : column.width,
    minWidth: grows ? 8 : undefined,
    flexGrow: grows ? 1 : 0,
    flexShrink: grows ? 1 : 0,
  };
}

/** The window of rows to show: the newest, unless the cursor is further up. */
function windowOf(count: number, visible: number, cursor: number): number {
  const newestFirst = Math.max(0, count - visible);
  return cursor < newestFirst ? cursor : newestFirst;
}

/**
 * One row per iteration: number, strategy, pass rate and its change, tests passed/failed, duration,
 * agent (and fallback), result (improved, regression rolled back, stuck, degraded...) and fix commit.
 */
export function IterationTable({ width, rows, focused = false, compact = false }: IterationTableProps) {
  const theme = useTheme();
  const iterations = useSession((s) => s.state?.iterations);
  const usage = useSession((s) => s.usage);
  const selected = useUi((s) => s.selected);
  const outcome = useSession((s) => s.done?.outcome);
  const stopped =
    outcome === undefined || outcome === 'awaiting_approval'
      ? undefined
      : outcome === 'interrupted'
        ? 'interrupted'
        : 'stopped';
  const all = useMemo(() => iterationRows(iterations ?? [], usage, stopped), [iterations, usage, stopped]);
  const columns = fitColumns(compact ? COMPACT : WIDE, width);
  const cursor =
    selected === null
      ? all.length - 1
      : Math.max(
          0,
          all.findIndex((r) => r.iteration === selected),
        );
  const first = windowOf(all.length, rows, cursor);
  const shown = all.slice(first, first + rows);
  const extra =
    all.length === 0
      ? 'none yet'
      : all.length > rows
        ? `${all.length} · ${first + 1}-${first + shown.length}`
        : String(all.length);

  return (
    <Box flexDirection="column" width={width}>
      <SectionTitle title="Iterations" extra={extra} focused={focused} width={width} />
      {compact ? null : (
        <Box height={1}>
          <Text> </Text>
          <Text> </Text>
          {columns.map((c) => (
            <Box key={c.title} {...cellBox(c)}>
              <Text dimColor wrap="truncate-end">
                {c.title}
              </Text>
            </Box>
          ))}
        </Box>
      )}
      {shown.map((row, i) => {
        const isCursor = first + i === cursor;
        return (
          <Box key={row.iteration} height={1} width={width}>
            <Text bold={isCursor && focused} inverse={isCursor && focused && !theme.color}>
              {isCursor ? '›' : ' '}{' '}
            </Text>
            {columns.map((c) => (
              <Box key={c.title} {...cellBox(c)}>
                <Text wrap="truncate-end" color={c.color?.(row, theme)} bold={isCursor && focused}>
                  {c.text(row)}
                </Text>
              </Box>
            ))}
          </Box>
        );
      })}
    </Box>
  );
}
