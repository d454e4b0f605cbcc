import { Box, Text } from 'ink';
import { visibleOutputTop } from '../state/ui-state.js';
import { useSession, useTheme, useTui, useUi } from '../tui/context.js';
import { isFailureLine, plainText, sanitizeLine } from '../tui/sanitize-line.js';
import { SectionTitle } from './section-title.js';

/** Props of the output pane. */
export interface OutputPaneProps {
  width: number;
  /** Lines of output shown, the title excluded. */
  height: number;
  focused?: boolean;
}

/**
 * The running step's output: only the visible lines of the ring buffer are drawn, each cut to the
 * pane's width (never wrapped). It follows the tail until scrolled; lines that report a failure stand out.
 */
export function OutputPane({ width, height, focused = false }: OutputPaneProps) {
  const theme = useTheme();
  const output = useTui().session.getState().output;
  // The buffer is not reactive: the throttled version number is what re-renders the pane.
  useSession((s) => s.outputVersion);
  const label = useSession((s) => s.outputLabel);
  const follow = useUi((s) => s.follow);
  const outputTop = useUi((s) => s.outputTop);

  const window = { total: output.total, size: output.size, height };
  const top = visibleOutputTop({ follow, outputTop }, window);
  const first = top - (output.total - output.size);
  const lines = output.slice(first, height);
  const position = follow ? 'following' : `held at ${top + 1}-${top + lines.length} of ${output.total} (f follows)`;
  const extra = [label, output.total === 0 ? 'no output yet' : position].filter(Boolean).join(' · ');

  return (
    <Box flexDirection="column" width={width} height={height + 1}>
      <SectionTitle title="Output" extra={extra} focused={focused} width={width} />
      {lines.map((raw, i) => {
        // Cut before drawing: a pane shows at most `width` cells, so a 100 KB line costs nothing.
        const line = sanitizeLine(raw, { color: theme.color, maxChars: width });
        const failure = isFailureLine(theme.color ? plainText(line) : line);
        return (
          <Box key={i} width={width} height={1}>
            <Text wrap="truncate-end" color={failure ? theme.bad : undefined} bold={failure}>
              {failure && theme.color ? plainText(line) || ' ' : line || ' '}
            </Text>
          </Box>
        );
      })}
    </Box>
  );
}
