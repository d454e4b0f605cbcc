import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { eachMapping, TraceMap } from '@jridgewell/trace-mapping';
import { glob } from 'tinyglobby';
import type { Move } from './moved-lines.js';

/** Maps read at most: a project's own built files, not a bundle of dependencies. */
const MAX_MAPS = 400;

/** Built lines of a source line: the file a map belongs to and the lines it generates from it. */
export interface Generated {
  map: string;
  file: string;
  lines: number[];
}

/**
 * The lines of the project's built files generated from each line of a source their `*.js.map` files name but
 * the project does not ship (`src/index.ts:17` -> `dist/src/index.js` 19 and 20). A runner that follows those
 * maps (babel-jest composes a file's own map into its transform's) reports the tests' lines in a file no one
 * can open; the built file is what ran and what a user of the package can edit.
 */
export async function unshippedSources(root: string, missing: ReadonlySet<string>): Promise<Map<string, Generated>> {
  const out = new Map<string, Generated>();
  if (missing.size === 0) return out;
  const maps = await glob('**/*.{js,cjs,mjs}.map', { cwd: root, ignore: ['**/node_modules/**', '**/.git/**'] });
  for (const map of maps.slice(0, MAX_MAPS)) {
    const raw = await readFile(join(root, map), 'utf8').catch(() => null);
    let trace: TraceMap;
    try {
      trace = new TraceMap(raw ?? '');
    } catch {
      continue;
    }
    const here = dirname(join(root, map));
    const sources = trace.sources.map((s) => (s === null ? null : relative(root, join(here, s))));
    if (!sources.some((s) => s !== null && missing.has(s))) continue;
    const built = relative(
      root,
      join(
        here,
        trace.file ??
          map
            .replace(/\.map$/, '')
            .split('/')
            .at(-1)!,
      ),
    );
    if (!existsSync(join(root, built))) continue;
    eachMapping(trace, (m) => {
      if (m.source === null || m.originalLine === null) return;
      const source = relative(root, join(here, m.source));
      if (!missing.has(source)) return;
      const key = `${source}:${m.originalLine}`;
      const at = out.get(key) ?? { map, file: built, lines: [] };
      if (!at.lines.includes(m.generatedLine)) at.lines.push(m.generatedLine);
      out.set(key, at);
    });
  }
  return out;
}

/** Each line of an unshipped source read at the built lines its map generates from it. */
export function unshippedToBuilt(generated: ReadonlyMap<string, Generated>): Move {
  return (l) => {
    const at = generated.get(`${l.file}:${l.line}`);
    return at
      ? {
          file: at.file,
          lines: at.lines,
          why: `the tests' coverage came back at ${l.file} line ${l.line} through ${at.map}, a source the project does not ship: read at the lines of ${at.file} the map generates from it`,
        }
      : null;
  };
}
