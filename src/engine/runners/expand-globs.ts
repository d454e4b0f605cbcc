import { globSync } from './glob-sync.js';

/**
 * Expands the words of one command that the test script left as unquoted globs, as the shell does when the
 * command starts: after the commands before it ran, so a glob over what a `pretest` build writes finds it.
 * A pattern that matches nothing stays as it is (the shell's default).
 */
export function expandGlobWords(argv: readonly string[], globs: ReadonlySet<string>, cwd: string): string[] {
  if (globs.size === 0) return [...argv];
  return argv.flatMap((word) => {
    if (!globs.has(word)) return [word];
    const matches = globSync(word, { cwd, onlyFiles: false, expandDirectories: false }).sort();
    return matches.length > 0 ? matches.map((match) => match.replace(/\/$/, '')) : [word];
  });
}
