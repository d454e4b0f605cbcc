import { parse } from 'shell-quote';

export type SplitCommand = { ok: true; argv: string[] } | { ok: false; error: string };

/**
 * Splits a command line as a shell would split words and quotes, without running a shell:
 * pipes, redirections and `&&` are refused, since nothing interprets them.
 */
export function splitCommandLine(line: string): SplitCommand {
  const argv: string[] = [];
  for (const token of parse(line, (name) => `$${name}`)) {
    if (typeof token === 'string') argv.push(token);
    else if ('op' in token && token.op === 'glob') argv.push(token.pattern);
    else if ('comment' in token) break;
    else return { ok: false, error: `"${line}" uses the shell operator ${'op' in token ? token.op : '?'}, which is not run through a shell: put the commands in a script (or an npm script) and give that` };
  }
  if (argv.length === 0) return { ok: false, error: 'the command is empty' };
  return { ok: true, argv };
}
