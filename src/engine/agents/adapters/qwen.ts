import { defineCliAdapter, modelArgs } from './cli-adapter.js';
import { FOLLOW_STDIN } from './gemini.js';
import { readResultMessage } from './result-message.js';

/**
 * Qwen Code: `qwen -o json -p ...`, the prompt on stdin (qwen appends `-p` to it). `--approval-mode plan`
 * (read-only) for analysis, `yolo` for the fix. Its JSON is an array of messages ending in a `result`
 * with `is_error`, like Claude Code's.
 */
export const qwenAdapter = defineCliAdapter({
  name: 'qwen',
  bin: 'qwen',
  checkedVersions: '0.15.x',
  args(role, model, extra) {
    return ['-o', 'json', '--approval-mode', role === 'analyze' ? 'plan' : 'yolo', ...modelArgs('-m', model), ...extra, '-p', FOLLOW_STDIN];
  },
  read: (stdout) => readResultMessage(stdout),
});
