import type { ReactNode } from 'react';
import { Box, Text } from 'ink';
import type { TeamChoice } from '../engine/team/events.js';
import { useSession, useTheme } from '../tui/context.js';
import { SectionTitle } from './section-title.js';

/** `c comprehensive`: the key of each pipeline is its first letter. */
const keyOf = (name: string): string => name[0]!;

/** `a → b → c` cut into lines of at most `width` columns, between stages. */
function wrapStages(stages: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const part of stages.split(' → ')) {
    const next = line ? `${line} → ${part}` : part;
    if (line && next.length > width) {
      lines.push(`${line} →`);
      line = part;
    } else line = next;
  }
  return [...lines, line];
}

/** The panel's lines as text at `width` columns: the scope's numbers, the pipelines with their tasks, the chosen one's stages, the keys. */
export function choiceLines(
  choice: TeamChoice,
  width: number,
): {
  summary: string;
  why: string;
  rows: { name: string; chosen: boolean; text: string }[];
  stages: string[];
  keys: string[];
} {
  const modules = `${choice.modules.length} module${choice.modules.length === 1 ? '' : 's'}`;
  const pad = Math.max(...choice.options.map((o) => o.name.length));
  return {
    summary: `${choice.chosen} (${choice.files} file${choice.files === 1 ? '' : 's'}, ${modules}${choice.modules.length ? `: ${choice.modules.join(', ')}` : ''})`,
    why: `detected ${choice.detected}: ${choice.why}`,
    rows: choice.options.map((o) => ({
      name: o.name,
      chosen: o.name === choice.chosen,
      text: `${keyOf(o.name)} ${o.name.padEnd(pad)} ${o.tasks} tasks`,
    })),
    stages: wrapStages(choice.options.find((o) => o.name === choice.chosen)?.stages ?? '', width - 4),
    keys: [choice.options.map((o) => `${keyOf(o.name)} ${o.name}`).join(' · '), 'enter to start · ? help · q quit'],
  };
}

function Line({ width, children }: { width: number; children: ReactNode }) {
  return (
    <Box width={width} height={1}>
      <Text wrap="truncate-end">{children}</Text>
    </Box>
  );
}

/**
 * `fixcycle team` before it starts: the pipeline the scope calls for with its numbers, the alternatives, and the
 * keys that switch and start (t / s / c, enter). Fits 60 columns: every line is cut at the width, never wrapped.
 */
export function PipelineChoicePanel({ width, height }: { width: number; height: number }) {
  const choice = useSession((s) => s.teamChoice);
  const theme = useTheme();
  if (!choice) return null;
  const lines = choiceLines(choice, width);
  return (
    <Box flexDirection="column" width={width} height={height} overflow="hidden">
      <SectionTitle title="Pipeline" extra="choose before it starts" width={width} />
      <Line width={width}>
        {'  '}
        <Text bold>{lines.summary}</Text>
      </Line>
      <Line width={width}>
        <Text dimColor>
          {'  '}
          {lines.why}
        </Text>
      </Line>
      <Line width={width}> </Line>
      {lines.rows.map((r) => [
        <Line key={r.name} width={width}>
          <Text color={r.chosen ? theme.accent : undefined} bold={r.chosen} dimColor={!r.chosen}>
            {r.chosen ? '▸ ' : '  '}
            {r.text}
          </Text>
        </Line>,
        ...(r.chosen
          ? lines.stages.map((l, i) => (
              <Line key={`stage-${i}`} width={width}>
                <Text dimColor>
                  {'    '}
                  {l}
                </Text>
              </Line>
            ))
          : []),
      ])}
      <Line width={width}> </Line>
      {lines.keys.map((k) => (
        <Line key={k} width={width}>
          {'  '}
          {k}
        </Line>
      ))}
    </Box>
  );
}
