import { Box, Text } from 'ink';
import type { PhaseStatus } from '../engine/events.js';
import { StatusMark } from './status-mark.js';

/** One row of a pipeline's tree (gen's phases, team's tasks): indent, mark, label and a dim detail, cut at `width`. */
export function TreeLine({
  indent,
  status,
  label,
  detail,
  width,
  dim,
}: {
  indent: number;
  status?: PhaseStatus;
  label: string;
  detail?: string;
  width: number;
  dim?: boolean;
}) {
  return (
    <Box width={width} height={1}>
      <Text wrap="truncate-end" dimColor={dim}>
        {' '.repeat(indent)}
        {status ? <StatusMark status={status} /> : ' '} <Text bold={status === 'running'}>{label}</Text>
        {detail ? <Text dimColor> {detail}</Text> : null}
      </Text>
    </Box>
  );
}
