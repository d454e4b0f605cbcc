import { Box, Text } from 'ink';
import { useShallow } from 'zustand/react/shallow';
import { useSession } from '../tui/context.js';
import { StatusMark } from './status-mark.js';

type Mark = 'pending' | 'running' | 'done' | 'failed' | 'skipped';
const MARK: Record<string, Mark> = {
  pending: 'pending',
  running: 'running',
  completed: 'done',
  failed: 'failed',
  skipped: 'skipped',
};

/** `TESTGEN-002` → `G2`: short enough for every task of a pipeline on one narrow line. */
export function shortTaskId(id: string): string {
  const m = /^(?:TEST)?([A-Z])[A-Z]*-0*(\d+)$/.exec(id);
  return m ? `${m[1]}${m[2]}` : id;
}

/**
 * `fixcycle team` in the narrow layout: what runs now (its wave, task and detail, or the last task that moved),
 * then every task's mark with a short id and each layer's coverage against its target.
 */
export function TeamCompactRows({ width }: { width: number }) {
  const { tasks, coverage } = useSession(useShallow((s) => ({ tasks: s.teamTasks, coverage: s.teamCoverage })));
  const entries = Object.entries(tasks);
  const waves = Math.max(...entries.map(([, t]) => t.wave));
  const [id, now] =
    entries.find(([, t]) => t.status === 'running') ??
    entries.filter(([, t]) => t.status !== 'pending').at(-1) ??
    entries[0]!;
  const layers = Object.entries(coverage)
    .sort()
    .map(([layer, c]) => `${layer} ${c.coverage ?? '-'}%/${c.target}%`);
  return (
    <Box flexDirection="column" width={width}>
      <Box width={width} height={1}>
        <Text wrap="truncate-end">
          <StatusMark status={MARK[now.status] ?? 'pending'} />{' '}
          <Text bold>{`Wave ${now.wave}/${waves} ${id} ${now.role}${now.layer ? ` ${now.layer}` : ''}`}</Text>
          {now.detail ? <Text dimColor> {now.detail}</Text> : null}
        </Text>
      </Box>
      <Box width={width} height={1}>
        <Text wrap="truncate-end">
          {entries.map(([taskId, t], i) => (
            <Text key={taskId}>
              {i > 0 ? ' ' : ''}
              <StatusMark status={MARK[t.status] ?? 'pending'} />
              <Text dimColor={t.status === 'pending'}>{shortTaskId(taskId)}</Text>
            </Text>
          ))}
          {layers.length ? <Text dimColor> · {layers.join(' · ')}</Text> : null}
        </Text>
      </Box>
    </Box>
  );
}
