import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
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
  const converter = v8ToIstanbul(path, 0, { source: text });
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
    return []; // a source map that does not match its text
  } finally {
    converter.destroy();
  }
}
