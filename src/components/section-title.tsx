import { Box, Text } from 'ink';
import { useTheme } from '../tui/context.js';

/** Props of a pane's title line. */
export interface SectionTitleProps {
  title: string;
  /** Said after the title, dimmed: counts, follow state. */
  extra?: string;
  /** The focused pane's title is marked (▸, bold, accent color) so focus reads without color. */
  focused?: boolean;
  width: number;
}

/** The title line of a pane: `▸ Output · following`. */
export function SectionTitle({ title, extra, focused = false, width }: SectionTitleProps) {
  const theme = useTheme();
  return (
    <Box width={width} height={1}>
      <Text wrap="truncate-end">
        <Text bold={focused} color={focused ? theme.accent : undefined} dimColor={!focused}>
          {focused ? '▸ ' : '  '}
          {title}
        </Text>
        {extra ? <Text dimColor> · {extra}</Text> : null}
      </Text>
    </Box>
  );
}
