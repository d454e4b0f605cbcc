import { join } from 'node:path';
import { defineCliAdapter, modelArgs } from './cli-adapter.js';
import { GEMINI_HOME_DIR, geminiSettingsFile, linkUserGeminiFiles } from './gemini-home.js';
import { geminiActivity, geminiProgress, readGeminiStream } from './gemini-stream.js';

export { readGeminiJson } from './gemini-stream.js';

/**
 * `-p` forces headless mode and is appended to the prompt read from stdin, so it only points at it:
 * the prompt itself stays off the command line (no length limit, not visible in `ps`).
 */
export const FOLLOW_STDIN = 'Follow the instructions above.';

/**
 * Gemini CLI: `gemini -o stream-json --skip-trust -p ...`, the prompt on stdin. `--skip-trust`: a repository
 * gemini has not been told to trust makes it exit 55 before any request. Analysis keeps the default approval
 * mode (headless, it leaves out every tool that would need approval: no edits, no shell); the fix runs `yolo`.
 * Settings (retry cap, model, no telemetry) come from a private home, see gemini-home.ts.
 */
export const geminiAdapter = defineCliAdapter({
  name: 'gemini',
  bin: 'gemini',
  args(role, model, extra) {
    return [
      '-o',
      'stream-json',
      '--approval-mode',
      role === 'analyze' ? 'default' : 'yolo',
      '--skip-trust',
      ...modelArgs('-m', model),
      ...extra,
      '-p',
      FOLLOW_STDIN,
    ];
  },
  env: (_role, { privateDir }) => ({ GEMINI_CLI_HOME: join(privateDir, GEMINI_HOME_DIR) }),
  files(_role, context) {
    linkUserGeminiFiles(context);
    return { [join(GEMINI_HOME_DIR, '.gemini', 'settings.json')]: geminiSettingsFile(context.userEnv) };
  },
  // gemini streams its answer as it comes (not its thinking), but has no request timeout: a server that never
  // answers is only noticed by the lack of progress. A test command the fix runs has the tool limit.
  stallMs: () => 35_000,
  read: readGeminiStream,
  activity: geminiActivity,
  progress: geminiProgress,
});
