import { useMemo } from 'react';
import { Box, Text } from 'ink';
import { useShallow } from 'zustand/react/shallow';
import { useSession, useTheme, useUi } from '../tui/context.js';
import { currentFailures, failureLines, failureSummary, labelWidth, type FailureLine } from '../tui/failure-lines.js';
import type { Theme } from '../tui/theme.js';
import { SectionTitle } from './section-title.js';

/** Props of the failures view. */
export interface FailuresViewProps {
  width: number;
  /** Lines shown, the title excluded. */
  height: number;
  focused?: boolean;
}

function criticalityColor(line: FailureLine, theme: Theme): string | undefined {
  if (line.criticality === 'error' || line.criticality === 'high') return theme.bad;
  if (line.criticality === 'medium') return theme.warn;
  return undefined;
}

/**
 * The current failures grouped by similar messages, most critical first, with the tests of each group.
 * Focused, `›` marks the group the arrows select and enter opens.
 */
export function FailuresView({ width, height, focused = false }: FailuresViewProps) {
  const theme = useTheme();
  const { failures, errors } = useSession(useShallow((s) => currentFailures(s)));
  const stuck = useSession((s) => s.stuckTests);
  const suspects = useSession((s) => s.suspects);
  const top = useUi((s) => s.failuresTop);
  const selected = useUi((s) => s.failureGroup);
  const lines = useMemo(() => failureLines(failures, errors, stuck, suspects), [failures, errors, stuck, suspects]);
  const groups = lines.filter((l) => l.group !== undefined).length;
  const labels = labelWidth(lines);
  // The cursor shows where the keys act: only while focused, and only when there is a group to open.
  const gutter = focused && groups > 0;
  const cursor = Math.min(selected, groups - 1);
  const first = Math.max(0, Math.min(top, lines.length - height));
  const shown = lines.slice(first, first + height);
  const more = lines.length > height ? ` · ${first + 1}-${first + shown.length} of ${lines.length} lines` : '';

  return (
    <Box flexDirection="column" width={width}>
      <SectionTitle
        title="Failures"
        extra={failureSummary(failures, errors, lines) + more}
        focused={focused}
        width={width}
      />
      {shown.map((line, i) => (
        <Box key={first + i} width={width} height={1}>
          <Text wrap="truncate-end">
            {gutter ? (
              <Text bold inverse={line.group === cursor && !theme.color}>
                {line.group === cursor ? '›' : ' '}{' '}
              </Text>
            ) : null}
            <Text
              color={criticalityColor(line, theme)}
              bold={line.criticality === 'high' || line.criticality === 'error'}
            >
              {line.label.padEnd(labels)}
            </Text>
            <Text dimColor={!line.criticality}>{line.text}</Text>
          </Text>
        </Box>
      ))}
    </Box>
  );
}
