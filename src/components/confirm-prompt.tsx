import { Box, Text } from 'ink';
import { useTheme, useUi } from '../tui/context.js';

/** The y/n question a destructive key asks before it acts. */
export function ConfirmPrompt({ width }: { width: number }) {
  const theme = useTheme();
  const confirm = useUi((s) => s.confirm);
  if (!confirm) return null;
  return (
    <Box width={width} height={1}>
      <Text wrap="truncate-end" bold inverse color={theme.color ? theme.warn : undefined}>
        {' '}
        {confirm.prompt} [y/n]{' '}
      </Text>
    </Box>
  );
}
