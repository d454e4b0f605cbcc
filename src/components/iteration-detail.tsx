import { Box, Text } from 'ink';
import type { DetailLine } from '../tui/iteration-detail-loader.js';
import { useUi } from '../tui/context.js';
import { sanitizeLine } from '../tui/sanitize-line.js';
import { SectionTitle } from './section-title.js';

/** Props of the iteration view. */
export interface IterationDetailProps {
  /** The loaded lines: analysis, fix plan, commit's diff summary. */
  lines: readonly DetailLine[];
  width: number;
  /** Rows, the title included. */
  height: number;
}

/** One iteration opened with enter: its analysis, fix plan and the files its commit changed; j/k scroll, esc closes. */
export function IterationDetail({ lines, width, height }: IterationDetailProps) {
  const detail = useUi((s) => s.detail);
  if (!detail) return null;
  const room = Math.max(1, height - 1);
  const top = Math.min(detail.top, Math.max(0, lines.length - room));
  const shown = lines.slice(top, top + room);
  const position = lines.length > room ? `${top + 1}-${top + shown.length} of ${lines.length} · ` : '';
  return (
    <Box flexDirection="column" width={width} height={height}>
      <SectionTitle title={`Iteration ${detail.iteration}`} extra={`${position}esc closes`} focused width={width} />
      {shown.map((line, i) => (
        <Box key={top + i} width={width} height={1}>
          <Text wrap="truncate-end" bold={line.heading} underline={line.heading}>
            {sanitizeLine(line.text, { color: false, maxChars: width }) || ' '}
          </Text>
        </Box>
      ))}
    </Box>
  );
}
