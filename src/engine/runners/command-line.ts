import { parse, quote } from 'shell-quote';

/** A word of a command line, or a shell operator between commands (`&&`, `|`, `>`...). */
export type Token = { word: string; glob: boolean } | { op: string };

/**
 * Splits a command line into words the way a POSIX shell would (quotes, escapes, `$VAR` from `env`),
 * without running a shell. Unquoted globs are marked so the caller can expand them; comments are dropped.
 */
export function tokenize(line: string, env: Record<string, string | undefined> = process.env): Token[] {
  const tokens: Token[] = [];
  for (const entry of parse(line, (key) => env[key] ?? '')) {
    if (typeof entry === 'string') tokens.push({ word: entry, glob: false });
    else if ('comment' in entry) continue;
    else if (entry.op === 'glob') tokens.push({ word: (entry as { pattern: string }).pattern, glob: true });
    else tokens.push({ op: entry.op });
  }
  return tokens;
}

/** The commands of a line, split at `&&`, `;`, `||`, `|` and `&`, each with the operator that follows it. */
export function splitCommands(tokens: Token[]): { words: Token[]; next: string | null }[] {
  const commands: { words: Token[]; next: string | null }[] = [];
  let words: Token[] = [];
  for (const token of tokens) {
    if ('op' in token && ['&&', ';', '||', '|', '&', '|&', ';;'].includes(token.op)) {
      commands.push({ words, next: token.op });
      words = [];
    } else words.push(token);
  }
  if (words.length > 0) commands.push({ words, next: null });
  return commands;
}

/**
 * The plain argument list of one command, or why it cannot run without a shell.
 * Output redirections are dropped (fixcycle captures the output itself); a bare fd number before them too.
 */
export function plainArgv(words: Token[]): { argv: string[]; globs: Set<number> } | { error: string } {
  const argv: string[] = [];
  const globs = new Set<number>();
  for (let i = 0; i < words.length; i++) {
    const token = words[i]!;
    if ('op' in token) {
      if (!/^\d?(>|>>|>&|&>)$/.test(token.op) && token.op !== '>&') return { error: `shell operator "${token.op}"` };
      if (argv.length > 0 && /^\d$/.test(argv[argv.length - 1]!)) argv.pop();
      i++; // the redirection target
      continue;
    }
    if (token.glob) globs.add(argv.length);
    argv.push(token.word);
  }
  return { argv, globs };
}

export type SplitCommand = { ok: true; argv: string[] } | { ok: false; error: string };

/** One command line as an argument list, for commands that must run without a shell (agents). */
export function splitCommandLine(line: string): SplitCommand {
  const commands = splitCommands(tokenize(line));
  if (commands.length !== 1 || commands[0]!.next !== null) {
    return {
      ok: false,
      error: `"${line}" chains several commands, which needs a shell: put them in a script and give that`,
    };
  }
  const plain = plainArgv(commands[0]!.words);
  if ('error' in plain)
    return {
      ok: false,
      error: `"${line}" uses the ${plain.error}, which needs a shell: put the command in a script and give that`,
    };
  if (plain.argv.length === 0) return { ok: false, error: 'the command is empty' };
  return { ok: true, argv: plain.argv };
}

/** Commands back as one shell line (for a part that needs a shell): words quoted, globs and operators as they were. */
export function quoteWords(commands: { words: Token[]; next: string | null }[]): string {
  const out: string[] = [];
  for (const { words, next } of commands) {
    for (const token of words) out.push('op' in token ? token.op : token.glob ? token.word : quote([token.word]));
    if (next) out.push(next);
  }
  return out.join(' ');
}
