import { Box, Text } from 'ink';
import { useTui } from '../tui/context.js';

/** `watch --follow` before any session: where it looks and what starts one. */
export function WaitingPanel({ width, height }: { width: number; height: number }) {
  const { follow, theme } = useTui();
  return (
    <Box flexDirection="column" width={width} height={height} paddingX={1}>
      <Text color={theme.accent} wrap="truncate-end">
        Waiting for a session in {follow}
      </Text>
      <Text dimColor wrap="wrap">
        fixcycle run, gen or team (or a Claude-Code-Workflow session) started in this repository shows here at once;
        a/r/p act on it. q leaves.
      </Text>
    </Box>
  );
}
