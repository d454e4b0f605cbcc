import { defineCliAdapter, modelArgs } from './cli-adapter.js';
import { messageActivity, messageProgress, readMessageStream } from './message-stream.js';
import { unlessUserSet } from './user-settings.js';

/**
 * Tools that change files, run commands or touch the repository, as Claude Code 2.1 names them: analysis
 * denies them all. `EnterWorktree` creates `.claude/worktrees/<name>` and a branch in the user's repository;
 * the cron, wake-up and workflow tools schedule work that outlives the call. (Every name here must exist in
 * the CLI: a deny rule for an unknown tool prints a warning on every run, as `MultiEdit` did.)
 */
export const ANALYSIS_DENIED_TOOLS = [
  'Bash',
  'Edit',
  'Write',
  'NotebookEdit',
  'EnterWorktree',
  'ExitWorktree',
  'CronCreate',
  'CronDelete',
  'ScheduleWakeup',
  'Workflow',
];

/** The fix edits the working tree, never a worktree of its own, and schedules nothing. */
export const FIX_DENIED_TOOLS = [
  'EnterWorktree',
  'ExitWorktree',
  'CronCreate',
  'CronDelete',
  'ScheduleWakeup',
  'Workflow',
];

/**
 * Claude retries a failed API call 10 times over about 3 minutes by default, silently. One retry rides out
 * a blip; a 429's retry-after (claude waits it when under 60 s) then bounds the wait. A request that gets no
 * answer is abandoned after 20 s (claude's default is 10 minutes); a streamed answer is not cut by it.
 */
const RETRY_CAPS = { CLAUDE_CODE_MAX_RETRIES: '1', API_TIMEOUT_MS: '20000' };

/**
 * Claude Code: `claude -p --output-format stream-json --verbose`, the prompt on stdin. Analysis runs with the
 * writing tools disallowed (print mode denies what is not allowed, so nothing can change); the fix accepts
 * edits but cannot run commands. Extra arguments (`--max-turns 30`, `--allowedTools ...`) come from the agent's config.
 */
export const claudeAdapter = defineCliAdapter({
  name: 'claude',
  bin: 'claude',
  args(role, model, extra) {
    const mode =
      role === 'analyze'
        ? ['--permission-mode', 'default', '--disallowedTools', ANALYSIS_DENIED_TOOLS.join(',')]
        : ['--permission-mode', 'acceptEdits', '--disallowedTools', FIX_DENIED_TOOLS.join(',')];
    // Partial messages: every token is a line, so a long answer or long thinking is progress, not silence.
    return [
      '-p',
      '--output-format',
      'stream-json',
      '--verbose',
      '--include-partial-messages',
      ...mode,
      ...modelArgs('--model', model),
      ...extra,
    ];
  },
  env: (_role, { userEnv }) => unlessUserSet(RETRY_CAPS, userEnv),
  // The caps above bound claude's own waiting (two 20 s requests); its retry events are no progress.
  stallMs: () => 40_000,
  read: (stdout) => readMessageStream(stdout),
  activity: messageActivity,
  progress: messageProgress,
});
