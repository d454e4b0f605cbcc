import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import libCoverage from 'istanbul-lib-coverage';
import v8ToIstanbul from 'v8-to-istanbul';
import { fromCoverageMap, type CoverageData } from './model.js';

const SCRIPT = /\.(m|c)?[jt]sx?$/;

/**
 * The JavaScript and TypeScript files of `files` that no test loaded, as never run (every line uncovered), as
 * c8's --all does: a V8 range of count 0 over the whole file, mapped by v8-to-istanbul.
 */
export async function unloadedAsUncovered(root: string, files: readonly string[], loaded: CoverageData): Promise<CoverageData> {
  const map = libCoverage.createCoverageMap({});
  for (const rel of files) {
    if (loaded[rel] || !SCRIPT.test(rel)) continue;
    const text = await readFile(join(root, rel), 'utf8').catch(() => '');
    if (!text) continue;
    const converter = v8ToIstanbul(join(root, rel), 0, { source: text });
    await converter.load();
    converter.applyCoverage([{ functionName: '', isBlockCoverage: true, ranges: [{ startOffset: 0, endOffset: text.length, count: 0 }] }]);
    map.merge(converter.toIstanbul());
    converter.destroy();
  }
  return { ...loaded, ...fromCoverageMap(map, root) };
}
