import { Box } from 'ink';
import { useShallow } from 'zustand/react/shallow';
import { GEN_NODE_TITLES, type GenNode } from '../engine/gen/events.js';
import type { SessionView } from '../state/store.js';
import { useSession } from '../tui/context.js';
import { TreeLine as Line } from './tree-line.js';

const PHASES_1_4: GenNode[] = ['session', 'context', 'analysis', 'tasks'];
const TASKS: GenNode[] = ['IMPL-001', 'IMPL-001.3', 'IMPL-001.5', 'IMPL-002'];

/** How many rows GenRows draws, for the layout. */
export function genRowCount(gen: SessionView['gen'], coverage: SessionView['genCoverage']): number {
  if (!gen) return 0;
  const phases = PHASES_1_4.every((n) => gen[n]?.status === 'done') ? 1 : PHASES_1_4.length;
  const findings = TASKS.reduce(
    (sum, n) =>
      sum +
      (gen[n]?.status === 'failed' || (gen[n]?.status === 'done' && n === 'IMPL-001.5')
        ? Math.min(3, gen[n]?.findings?.length ?? 0)
        : 0),
    0,
  );
  return phases + 1 + TASKS.length + findings + (coverage ? (coverage.measured ? coverage.files.length : 1) : 0);
}

/**
 * The gen pipeline's part of the phase tree: phases 1-4 (collapsed to one line once done), phase 5 with
 * IMPL-001/001.3/001.5/002, each with its round and first findings, and a coverage line per changed file.
 * Renders nothing for `fixcycle run`.
 */
export function GenRows({ width }: { width: number }) {
  const { gen, coverage } = useSession(useShallow((s) => ({ gen: s.gen, coverage: s.genCoverage })));
  if (!gen) return null;
  const status = (n: GenNode) => gen[n]?.status ?? 'pending';
  const allDone = PHASES_1_4.every((n) => status(n) === 'done');
  const rows = [];
  if (allDone)
    rows.push(
      <Line
        key="p14"
        indent={0}
        status="done"
        label="Phase 1-4: Test Generation"
        detail={gen.tasks?.detail}
        width={width}
      />,
    );
  else
    for (const n of PHASES_1_4)
      rows.push(
        <Line key={n} indent={0} status={status(n)} label={GEN_NODE_TITLES[n]} detail={gen[n]?.detail} width={width} />,
      );
  rows.push(<Line key="p5" indent={0} status={status('execution')} label={GEN_NODE_TITLES.execution} width={width} />);
  for (const n of TASKS) {
    const view = gen[n];
    const round = view?.round ? `round ${view.round}` : '';
    rows.push(
      <Line
        key={n}
        indent={2}
        status={status(n)}
        label={GEN_NODE_TITLES[n]}
        detail={[round, view?.detail?.replace(/^round \d+:?\s*/, '')].filter(Boolean).join(': ')}
        width={width}
      />,
    );
    if (view?.status === 'failed' || (view?.status === 'done' && n === 'IMPL-001.5')) {
      for (const f of (view.findings ?? []).slice(0, 3))
        rows.push(<Line key={`${n}-${f}`} indent={6} label={`· ${f}`} width={width} dim />);
    }
  }
  if (coverage) {
    if (!coverage.measured)
      rows.push(<Line key="cov" indent={2} label="coverage not measured:" detail={coverage.reason} width={width} />);
    for (const f of coverage.files) {
      const ok = (f.linesAfter ?? 100) >= f.targetLines && (f.branchesAfter ?? 100) >= f.targetBranches;
      rows.push(
        <Line
          key={`cov-${f.file}`}
          indent={2}
          status={ok ? 'done' : 'failed'}
          label={`coverage ${f.file}`}
          detail={
            f.note ??
            `lines ${f.linesBefore ?? '-'}% → ${f.linesAfter ?? '-'}% (target ${f.targetLines}%), branches ${f.branchesBefore ?? '-'}% → ${f.branchesAfter ?? '-'}% (target ${f.targetBranches}%)`
          }
          width={width}
        />,
      );
    }
  }
  return <Box flexDirection="column">{rows}</Box>;
}
