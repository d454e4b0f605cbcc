import { defineCliAdapter, modelArgs } from './cli-adapter.js';
import { readResultMessage } from './result-message.js';

/** Tools that change files or run commands; analysis is read-only. */
const WRITE_TOOLS = 'Bash,Edit,MultiEdit,Write,NotebookEdit';

/**
 * Claude Code: `claude -p --output-format json`, the prompt on stdin. Analysis runs with the writing tools
 * disallowed (print mode denies what is not allowed, so nothing can change); the fix accepts edits.
 * Extra arguments (`--max-turns 30`, `--allowedTools ...`) come from the agent's config.
 */
export const claudeAdapter = defineCliAdapter({
  name: 'claude',
  bin: 'claude',
  checkedVersions: '2.1.x',
  args(role, model, extra) {
    const mode = role === 'analyze' ? ['--permission-mode', 'default', '--disallowedTools', WRITE_TOOLS] : ['--permission-mode', 'acceptEdits'];
    return ['-p', '--output-format', 'json', ...mode, ...modelArgs('--model', model), ...extra];
  },
  read: (stdout) => readResultMessage(stdout),
});
