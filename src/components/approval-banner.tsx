import { Box, Text } from 'ink';
import { useShallow } from 'zustand/react/shallow';
import { approvalQuestion } from '../tui/approval-question.js';
import { useSession, useTui } from '../tui/context.js';
import { fitQuestion } from '../tui/question-lines.js';
import { KeyPieces } from './confirm-prompt.js';

/** The approval question: pass rate and what is left, then the keys, each key visible at any width. */
export function ApprovalBanner({ width }: { width: number }) {
  const { controls, theme } = useTui();
  const view = useSession(
    useShallow((s) => ({ awaitingApproval: s.awaitingApproval, sessionId: s.sessionId, state: s.state })),
  );
  const question = approvalQuestion(view, controls);
  if (!question) return null;
  const fitted = fitQuestion(question, width);
  return (
    <Box flexDirection="column" width={width}>
      {fitted.question.map((line, i) => (
        <Text key={i} wrap="truncate-end">
          <Text bold color={theme.warn} inverse={!theme.color}>
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
      {fitted.inline || fitted.keys.length === 0 ? null : (
        <Text wrap="truncate-end">
          {'  '}
          <KeyPieces pieces={fitted.keys} />
        </Text>
      )}
    </Box>
  );
}
