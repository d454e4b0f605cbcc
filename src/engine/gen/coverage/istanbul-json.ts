import { readFile } from 'node:fs/promises';
import libCoverage from 'istanbul-lib-coverage';
import { fromCoverageMap, type CoverageData } from './model.js';

/** Reads an istanbul `coverage-final.json` (jest's and vitest's json reporter) into line and branch coverage. */
export async function readIstanbulJson(path: string, root: string, include: (file: string) => boolean): Promise<CoverageData> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(path, 'utf8'));
  } catch {
    return {};
  }
  const data = fromCoverageMap(libCoverage.createCoverageMap(raw as libCoverage.CoverageMapData), root);
  return Object.fromEntries(Object.entries(data).filter(([file]) => include(file)));
}
