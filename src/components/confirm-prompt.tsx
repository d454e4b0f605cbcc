import { Box, Text } from 'ink';
import { confirmQuestion } from '../tui/banners.js';
import { useTheme, useUi } from '../tui/context.js';
import { fitQuestion, type Piece } from '../tui/question-lines.js';

/** Keys bold, words plain. */
export function KeyPieces({ pieces }: { pieces: readonly Piece[] }) {
  return (
    <>
      {pieces.map((p, i) =>
        p.key ? (
          <Text key={i} bold>
            {p.text}
          </Text>
        ) : (
          <Text key={i}>{p.text}</Text>
        ),
      )}
    </>
  );
}

/** The y/n question a destructive key asks before it acts: every key visible at any width, the question wrapped. */
export function ConfirmPrompt({ width }: { width: number }) {
  const theme = useTheme();
  const confirm = useUi((s) => s.confirm);
  if (!confirm) return null;
  const fitted = fitQuestion(confirmQuestion(confirm), width);
  const color = theme.color ? theme.warn : undefined;
  return (
    <Box width={width} flexDirection="column">
      {fitted.question.map((line, i) => (
        <Text key={i} wrap="truncate-end">
          <Text bold inverse color={color}>
            {line}
          </Text>
          {fitted.inline && fitted.keys.length > 0 && i === fitted.question.length - 1 ? (
            <>
              {'  '}
              <KeyPieces pieces={fitted.keys} />
            </>
          ) : null}
        </Text>
      ))}
      {fitted.inline ? null : (
        <Text wrap="truncate-end">
          {'  '}
          <KeyPieces pieces={fitted.keys} />
        </Text>
      )}
    </Box>
  );
}
