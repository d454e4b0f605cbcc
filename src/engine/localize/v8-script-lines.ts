import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { eachMapping, TraceMap } from '@jridgewell/trace-mapping';
import libCoverage from 'istanbul-lib-coverage';
import v8ToIstanbul from 'v8-to-istanbul';
import { coveredKeys, fromCoverageMap } from '../gen/coverage/model.js';
import { keepFiles } from '../gen/coverage/paths.js';
import { isSuspectSource } from './source-paths.js';

/** A script of a V8 take with the text V8 ran (a runner's transform of the file, wrapped), written beside it. */
export interface ScriptWithSource {
  url: string;
  source: string;
  functions: {
    functionName: string;
    ranges: { startOffset: number; endOffset: number; count: number }[];
    isBlockCoverage: boolean;
  }[];
}

/**
 * The project lines a script's take ran (`file:line`), its offsets read in the text V8 ran rather than the
 * file on disk: jest runs its transform of a file inside its module function, and the transform's inline
 * source map leads back to the file's own lines. Empty when that text is gone.
 */
export async function scriptLines(root: string, script: ScriptWithSource): Promise<string[]> {
  const text = await readFile(script.source, 'utf8').catch(() => null);
  if (text === null) return [];
  const path = script.url.startsWith('file:') ? fileURLToPath(script.url) : script.url;
  const lines = await convert(root, script, path, text);
  // A map leading to a source the project does not ship (tsc's `dist/` of an unshipped `src/`): the lines are
  // counted in a stand-in of the source's length, and read back at the built file by its own map
  // (`unshipped-sources.ts`).
  if (lines !== null) return lines;
  const standIn = unshippedStandIn(text, path);
  return standIn === null ? [] : ((await convert(root, script, path, text, standIn)) ?? []);
}

/** A stand-in text (v8-to-istanbul trims trailing blanks) with the lines an inline map's single source reaches, when that source is not on disk. */
function unshippedStandIn(text: string, path: string): string | null {
  const inline = /\n\/\/# sourceMappingURL=data:application\/json;(?:charset=[\w-]+;)?base64,([A-Za-z0-9+/=]+)/.exec(
    text,
  );
  if (!inline) return null;
  try {
    const map = new TraceMap(Buffer.from(inline[1]!, 'base64').toString('utf8'));
    if (map.sources.length !== 1 || map.sourcesContent?.[0]) return null;
    if (existsSync(resolve(dirname(path), map.sources[0]!))) return null;
    let last = 0;
    eachMapping(map, (m) => void (last = Math.max(last, m.originalLine ?? 0)));
    // Long lines: a mapped column always falls inside its line.
    return Array.from({ length: last + 1 }, () => 'x'.repeat(1000)).join('\n');
  } catch {
    return null;
  }
}

async function convert(
  root: string,
  script: ScriptWithSource,
  path: string,
  text: string,
  originalSource?: string,
): Promise<string[] | null> {
  const converter = v8ToIstanbul(path, 0, { source: text, ...(originalSource ? { originalSource } : {}) });
  try {
    await converter.load();
    // The take's first range says "not run" over the whole script. Through a source map a range is kept
    // when both its ends map, and a wrapper's text before the code (vitest's) maps to no line: v8-to-istanbul's
    // `(empty-report)` sets every line of the file to 0 whatever maps. Other ranges end on the code's last
    // line, before the map's comments and the wrapper's end.
    const mapComment = text.search(/\n\/\/# sourceMapping(URL|Source)=/);
    const last = mapComment > 0 ? mapComment : text.length;
    const end = (offset: number): number => Math.min(offset, last);
    converter.applyCoverage(
      script.functions.map((f, i) => ({
        ...f,
        functionName: i === 0 ? '(empty-report)' : f.functionName,
        ranges: f.ranges.map((r) => ({ ...r, startOffset: end(r.startOffset), endOffset: end(r.endOffset) })),
      })),
    );
    const map = libCoverage.createCoverageMap(converter.toIstanbul());
    const coverage = keepFiles(fromCoverageMap(map, root), isSuspectSource);
    return [...coveredKeys(coverage)].filter((k) => !k.endsWith(':branch'));
  } catch {
    return null; // a source map that does not match its text, or leads to a file not on disk
  } finally {
    converter.destroy();
  }
}
