import type { AgentAdapter } from './agent.js';
import { classifyErrorText } from './classify.js';
import { findResetTime } from './reset-time.js';

function lastLine(text: string): string {
  return text.trim().split('\n').at(-1)?.trim().slice(0, 300) ?? '';
}

/**
 * A plain command of the agent command protocol: prompt on stdin, plan on stdout, exit 0 when done. A command
 * that fails saying it was rate-limited (or not logged in) is classified so, like the built-in CLIs, so the
 * chain cools it down and waits out the reset it announced.
 */
export const commandAdapter: AgentAdapter = {
  name: 'command',
  buildCommand(spec) {
    return { argv: spec.command, stdin: true };
  },
  interpret({ exitCode, timedOut, stdout, stderr }) {
    if (timedOut) return { classification: 'timeout', detail: 'timed out and was killed', finalText: stdout };
    if (exitCode !== 0) {
      const said = lastLine(stderr) || lastLine(stdout);
      const kind = classifyErrorText(`${stderr}\n${stdout}`);
      if (kind === 'rate_limited') {
        const retryAt = findResetTime(`${stderr}\n${stdout}`);
        return {
          classification: 'rate_limited',
          detail: `rate-limited: ${said}`,
          finalText: stdout,
          ...(retryAt !== undefined ? { retryAt } : {}),
        };
      }
      if (kind === 'auth_error')
        return { classification: 'auth_error', detail: `not authenticated: ${said}`, finalText: stdout };
      return {
        classification: 'failed',
        detail: `exited ${exitCode ?? 'by a signal'}${said ? `: ${said}` : ''}`,
        finalText: stdout,
      };
    }
    return { classification: 'ok', finalText: stdout };
  },
};
