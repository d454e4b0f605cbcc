import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The `engines.node` of the npm package an executable comes from (its nearest package.json up the real path), or undefined. */
export function nodeEnginesOf(executable: string): string | undefined {
  let dir: string;
  try {
    dir = dirname(realpathSync(executable));
  } catch {
    return undefined;
  }
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        const engines = (JSON.parse(readFileSync(manifest, 'utf8')) as { engines?: { node?: unknown } }).engines;
        return typeof engines?.node === 'string' ? engines.node : undefined;
      } catch {
        return undefined;
      }
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/**
 * Whether Node `running` (`20.20.2`) is older than a `>=22` / `>=22.0.0` range; undefined for ranges of any
 * other form (they are not judged).
 */
export function olderThanRange(running: string, range: string): boolean | undefined {
  const m = /^\s*>=\s*v?(\d+)(?:\.(\d+))?(?:\.(\d+))?\s*$/.exec(range);
  if (!m) return undefined;
  const want = [Number(m[1]), Number(m[2] ?? 0), Number(m[3] ?? 0)];
  const have = running.replace(/^v/, '').split('.').map(Number);
  for (let i = 0; i < 3; i++) if ((have[i] ?? 0) !== want[i]) return (have[i] ?? 0) < want[i]!;
  return false;
}
