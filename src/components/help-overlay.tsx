import { Box, Text } from 'ink';
import { useShallow } from 'zustand/react/shallow';
import { useSession, useTui, useUi } from '../tui/context.js';
import { helpLines, helpPlace } from '../tui/help-lines.js';
import { SectionTitle } from './section-title.js';

/** The keys and what they do, generated from the key table (the footer comes from the same table). */
export function HelpOverlay({ width, height }: { width: number; /** Rows, the title included. */ height: number }) {
  const { theme, title, controls } = useTui();
  const top = useUi((s) => s.helpTop);
  const session = useSession(useShallow((s) => ({ done: s.done, awaitingApproval: s.awaitingApproval })));
  const lines = helpLines(theme, helpPlace(session, controls, title));
  const room = Math.max(1, height - 1);
  const shown = lines.slice(top, top + room);
  const more = lines.length > room ? `${top + 1}-${top + shown.length} of ${lines.length} · j/k scroll` : '';
  return (
    <Box flexDirection="column" width={width} height={height}>
      <SectionTitle title="Keys" extra={[more, 'esc closes'].filter(Boolean).join(' · ')} focused width={width} />
      {shown.map((line, i) => (
        <Box key={top + i} width={width} height={1}>
          <Text wrap="truncate-end">{line || ' '}</Text>
        </Box>
      ))}
    </Box>
  );
}
