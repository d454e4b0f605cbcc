import { Box, Text } from 'ink';
import type { DetailLine } from '../tui/iteration-detail-loader.js';
import { useTheme } from '../tui/context.js';
import { sanitizeLine } from '../tui/sanitize-line.js';
import { SectionTitle } from './section-title.js';

/** Props of a full-body view opened with enter. */
export interface DetailPanelProps {
  title: string;
  lines: readonly DetailLine[];
  /** The first line shown, as scrolled (clamped here to what the lines allow). */
  top: number;
  width: number;
  /** Rows, the title included. */
  height: number;
}

/** Lines filling the body under a title that says which part shows; j/k scroll, esc closes. */
export function DetailPanel({ title, lines, top: wanted, width, height }: DetailPanelProps) {
  const theme = useTheme();
  const tone = (line: DetailLine) =>
    line.diff === 'add' ? theme.good : line.diff === 'del' ? theme.bad : line.diff === 'hunk' ? 'cyan' : undefined;
  const room = Math.max(1, height - 1);
  const top = Math.min(wanted, Math.max(0, lines.length - room));
  const shown = lines.slice(top, top + room);
  const position = lines.length > room ? `${top + 1}-${top + shown.length} of ${lines.length} · ` : '';
  return (
    <Box flexDirection="column" width={width} height={height}>
      <SectionTitle title={title} extra={`${position}esc closes`} focused width={width} />
      {shown.map((line, i) => (
        <Box key={top + i} width={width} height={1}>
          <Text
            wrap="truncate-end"
            bold={line.heading}
            underline={line.heading}
            color={theme.color ? tone(line) : undefined}
            dimColor={line.diff === 'meta'}
          >
            {sanitizeLine(line.text, { color: false, maxChars: width }) || ' '}
          </Text>
        </Box>
      ))}
    </Box>
  );
}
