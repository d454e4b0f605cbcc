import { readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';

// Each mutant gets a modification time no earlier write had: Python's bytecode cache trusts a source's mtime and
// size, and two mutants of one line often have the same size (`<` and `>`), so a shared mtime would run the last.
let nextStamp = 0;
function freshStamp(): number {
  nextStamp = Math.max(nextStamp + 1, Math.floor(Date.now() / 1000));
  return nextStamp;
}

/**
 * Runs `run` with the mutant's text in place of the module at `path`, then puts back the exact original bytes and
 * times, whatever happens: on a throw, on an abort, and on fixcycle's own exit while the run is under way. The
 * module is the user's: a mutant is never left behind.
 */
export async function withMutant<T>(path: string, text: string, run: () => Promise<T>): Promise<T> {
  const original = readFileSync(path);
  const { atimeMs, mtimeMs } = statSync(path);
  let restored = false;
  const restore = (): void => {
    if (restored) return;
    writeFileSync(path, original);
    utimesSync(path, atimeMs / 1000, mtimeMs / 1000);
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
