import { join } from 'node:path';
import { defineCliAdapter, modelArgs } from './cli-adapter.js';
import { findOnPath } from './discover.js';
import { FOLLOW_STDIN } from './gemini.js';
import { messageActivity, messageProgress, readMessageStream } from './message-stream.js';
import { mergeUnder, readUserSettings, unlessUserSet } from './user-settings.js';

/**
 * fixcycle's defaults for qwen, given as its "system defaults" file: the lowest layer, so the user's own
 * settings win. The OpenAI SDK's retries off (qwen's own loop still makes 7 attempts, about 75 s on a 429;
 * without the cap it retries for up to an hour), a 20 s wait for the answer to start (default 2 minutes), and no memory
 * extraction: after a session it resends the whole conversation and writes into `~/.qwen`.
 */
export const QWEN_DEFAULTS = {
  model: { generationConfig: { maxRetries: 0, timeout: 20_000 } },
  memory: { enableManagedAutoMemory: false },
  general: { enableAutoUpdate: false },
  privacy: { usageStatisticsEnabled: false },
  telemetry: { enabled: false },
};

const DEFAULTS_FILE = join('qwen', 'system-defaults.json');

/**
 * qwen 0.24's bundled ripgrep lacks its execute bit (`Ripgrep not available: spawn .../rg EACCES` on every run):
 * the system's `rg` when there is one, else qwen's own search, which needs no binary.
 */
function ripgrepSettings(userEnv: NodeJS.ProcessEnv): { tools: Record<string, boolean> } {
  return { tools: findOnPath('rg', userEnv) ? { useBuiltinRipgrep: false } : { useRipgrep: false } };
}

/**
 * Plan mode tells the model to finish by calling `exit_plan_mode`, which headless mode always denies, so a
 * real model may spend a turn on it instead of answering.
 */
export const HEADLESS_PLAN =
  'You run headless: nobody can approve a plan. Give your complete answer as your final message and do not call exit_plan_mode.';

/**
 * Qwen Code: `qwen -o stream-json -p ...`, the prompt on stdin (qwen appends `-p` to it). `--approval-mode plan`
 * (read-only) for analysis, `yolo` for the fix. Its stream is Claude Code's: messages ending in a `result`;
 * a failed API call is only the result text `[API Error: ...]`, with exit 0 and `is_error: false`.
 */
export const qwenAdapter = defineCliAdapter({
  name: 'qwen',
  bin: 'qwen',
  args(role, model, extra) {
    const mode =
      role === 'analyze'
        ? ['--approval-mode', 'plan', '--append-system-prompt', HEADLESS_PLAN]
        : ['--approval-mode', 'yolo'];
    // Partial messages: every streamed token is a line, so silence means the API is not answering.
    return [
      '-o',
      'stream-json',
      '--include-partial-messages',
      ...mode,
      ...modelArgs('-m', model),
      ...extra,
      '-p',
      FOLLOW_STDIN,
    ];
  },
  // The OpenAI SDK inside qwen logs each failed attempt on stdout at `info`: the only sign of qwen's own
  // retry loop, which no setting reaches (7 attempts, about 75 s on a 429 or 5xx).
  env: (_role, { privateDir, userEnv }) => ({
    QWEN_CODE_SYSTEM_DEFAULTS_PATH: join(privateDir, DEFAULTS_FILE),
    ...unlessUserSet({ OPENAI_LOG: 'info' }, userEnv),
  }),
  files(_role, { userEnv }) {
    // A defaults file the user points qwen at stays theirs: its values win over fixcycle's.
    const own = userEnv.QWEN_CODE_SYSTEM_DEFAULTS_PATH ? readUserSettings(userEnv.QWEN_CODE_SYSTEM_DEFAULTS_PATH) : {};
    const defaults = mergeUnder(ripgrepSettings(userEnv), QWEN_DEFAULTS as Record<string, unknown>);
    return { [DEFAULTS_FILE]: `${JSON.stringify(mergeUnder(defaults, own), null, 2)}\n` };
  },
  // Counted over the whole call: three failed attempts of an analysis (about 5 s of qwen's backoff) or five of a
  // fix (about 25 s; a long fix has many requests, a passing 429 among them is no reason to stop it).
  maxRetries: (role) => (role === 'analyze' ? 2 : 4),
  // Every token is a line: 30 s without one (qwen may take 15 s to start on a busy machine) hands over within the
  // minute whatever qwen prints about its own retries (0.24 retries connection errors and timeouts for minutes).
  // A test command the fix runs has the tool limit.
  stallMs: () => 30_000,
  read: (stdout) => readMessageStream(stdout),
  activity: messageActivity,
  progress: messageProgress,
});
