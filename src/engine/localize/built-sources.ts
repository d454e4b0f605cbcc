import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { typescript } from './js-functions.js';

/**
 * The files tsc writes from the project's own TypeScript, output -> source, both relative to the root: what
 * `tsconfig.json` (its `files`, `include`, `rootDir` and `outDir`) makes of each source, as tsc itself computes
 * it. Empty without a root `tsconfig.json` with an `outDir`, or when it does not parse. Built output without a
 * source map is what a test loads; the source is what a user edits.
 */
export async function tscOutputs(root: string): Promise<Map<string, string>> {
  const config = join(root, 'tsconfig.json');
  const out = new Map<string, string>();
  if (!existsSync(config)) return out;
  const ts = await typescript();
  const read = ts.readConfigFile(config, (p) => ts.sys.readFile(p));
  if (read.error) return out;
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, root, undefined, config);
  if (!parsed.options.outDir) return out;
  for (const source of parsed.fileNames) {
    if (/\.d\.[cm]?ts$/.test(source) || !/\.[cm]?tsx?$/.test(source)) continue;
    for (const built of ts.getOutputFileNames(parsed, source, !ts.sys.useCaseSensitiveFileNames))
      if (/\.[cm]?js$/.test(built)) out.set(relative(root, built), relative(root, source));
  }
  return out;
}
