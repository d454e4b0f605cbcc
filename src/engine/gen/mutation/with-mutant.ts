import { existsSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';

// Each mutant gets a modification time no earlier write had: Python's bytecode cache trusts a source's mtime and
// size, and two mutants of one line often have the same size (`<` and `>`), so a shared mtime would run the last.
let nextStamp = 0;
function freshStamp(): number {
  nextStamp = Math.max(nextStamp + 1, Math.floor(Date.now() / 1000));
  return nextStamp;
}

/** What a journal keeps while a mutant is in place: the module and its original bytes (base64) and times. */
interface Journal {
  path: string;
  original: string;
  atimeMs: number;
  mtimeMs: number;
}

function putBack(j: Journal): void {
  writeFileSync(j.path, Buffer.from(j.original, 'base64'));
  utimesSync(j.path, j.atimeMs / 1000, j.mtimeMs / 1000);
}

/**
 * Puts back the module a killed fixcycle left a mutant in (SIGKILL leaves no time to restore it), from the journal
 * written before the mutant was: returns its path, or null when no mutant was left.
 */
export function restoreLeftMutant(journal: string): string | null {
  if (!existsSync(journal)) return null;
  const j = JSON.parse(readFileSync(journal, 'utf8')) as Journal;
  putBack(j);
  rmSync(journal, { force: true });
  return j.path;
}

/**
 * Runs `run` with the mutant's text in place of the module at `path`, then puts back the exact original bytes and
 * times, whatever happens: on a throw, on an abort, and on fixcycle's own exit while the run is under way. With a
 * `journal` path, the original is written there first, for `restoreLeftMutant` after a kill. The module is the
 * user's: a mutant is never left behind.
 */
export async function withMutant<T>(path: string, text: string, run: () => Promise<T>, journal?: string): Promise<T> {
  const { atimeMs, mtimeMs } = statSync(path);
  const saved: Journal = { path, original: readFileSync(path).toString('base64'), atimeMs, mtimeMs };
  if (journal) {
    writeFileSync(`${journal}.tmp`, JSON.stringify(saved));
    renameSync(`${journal}.tmp`, journal);
  }
  let restored = false;
  const restore = (): void => {
    if (restored) return;
    putBack(saved);
    if (journal) rmSync(journal, { force: true });
    restored = true;
  };
  process.once('exit', restore);
  try {
    writeFileSync(path, text);
    const stamp = freshStamp();
    utimesSync(path, stamp, stamp);
    return await run();
  } finally {
    restore();
    process.off('exit', restore);
  }
}
