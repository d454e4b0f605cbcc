import type { CliReading } from '../classify.js';
import { defineCliAdapter, modelArgs } from './cli-adapter.js';

/** Lines by which aider reports a failed model call (it prints them and may still exit 0). */
const ERROR_LINE = /(litellm\.\w*(Error|Exception)\b|\w+(RateLimit|Authentication|NotFound|ServiceUnavailable|APIConnection)Error\b|The API provider (has rate limited|is not able to authenticate)|API provider's servers are down|^Error: )/m;

/** aider has no machine-readable output: its text is read for the error lines litellm and aider print. */
export function readAiderText(stdout: string, stderr: string): CliReading {
  const text = `${stdout}\n${stderr}`;
  const errors = text.split('\n').filter((line) => ERROR_LINE.test(line));
  return { structured: true, finalText: stdout, ...(errors.length ? { error: errors.join('\n') } : {}) };
}

/**
 * aider (fix role only): the prompt as `--message`, every question answered yes, no commits of its own
 * (fixcycle commits exactly the files the fix changed), and no `.aider*` line added to .gitignore.
 */
export const aiderAdapter = defineCliAdapter({
  name: 'aider',
  bin: 'aider',
  roles: ['fix'],
  promptArg: true,
  args(_role, model, extra) {
    return ['--yes-always', '--no-auto-commits', '--no-gitignore', '--no-pretty', '--no-stream', '--no-check-update', ...modelArgs('--model', model), ...extra, '--message'];
  },
  read: readAiderText,
});
