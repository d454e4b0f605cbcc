import type { AgentAdapter } from './agent.js';

function lastLine(text: string): string {
  return text.trim().split('\n').at(-1)?.trim().slice(0, 300) ?? '';
}

/** A plain command of the agent command protocol: prompt on stdin, plan on stdout, exit 0 when done. */
export const commandAdapter: AgentAdapter = {
  name: 'command',
  buildCommand(spec) {
    return { argv: spec.command, stdin: true };
  },
  interpret({ exitCode, timedOut, stdout, stderr }) {
    if (timedOut) return { classification: 'timeout', detail: 'timed out and was killed', finalText: stdout };
    if (exitCode !== 0) {
      const said = lastLine(stderr) || lastLine(stdout);
      return { classification: 'failed', detail: `exited ${exitCode ?? 'by a signal'}${said ? `: ${said}` : ''}`, finalText: stdout };
    }
    return { classification: 'ok', finalText: stdout };
  },
};
