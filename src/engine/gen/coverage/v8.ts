import { readdir, readFile } from 'node:fs/promises';
import { isAbsolute, join, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import libCoverage from 'istanbul-lib-coverage';
import v8ToIstanbul from 'v8-to-istanbul';
import { fromCoverageMap, type CoverageData } from './model.js';
import { realRoot, relativeToRoot } from './paths.js';

interface V8Script {
  url: string;
  functions: { functionName: string; ranges: { startOffset: number; endOffset: number; count: number }[]; isBlockCoverage: boolean }[];
}

function projectPath(root: string, url: string): string | null {
  if (!url.startsWith('file://')) return null;
  const abs = fileURLToPath(url);
  const rel = relativeToRoot(root, abs);
  if (!rel || rel.startsWith('..') || isAbsolute(rel) || rel.split(sep).includes('node_modules')) return null;
  return rel.split(sep).join('/');
}

/**
 * Reads the V8 coverage files a run left in `dir` (NODE_V8_COVERAGE) into line and branch coverage, through
 * v8-to-istanbul, for the project files `include` accepts.
 */
export async function readV8Coverage(dir: string, root: string, include: (file: string) => boolean): Promise<CoverageData> {
  const map = libCoverage.createCoverageMap({});
  const sources = new Map<string, string>();
  const source = async (rel: string): Promise<string | null> => {
    if (!sources.has(rel)) sources.set(rel, await readFile(join(root, rel), 'utf8').catch(() => ''));
    return sources.get(rel) || null;
  };
  const apply = async (rel: string, functions: V8Script['functions']): Promise<void> => {
    const text = await source(rel);
    if (text === null) return;
    const converter = v8ToIstanbul(join(root, rel), 0, { source: text });
    await converter.load();
    converter.applyCoverage(functions);
    map.merge(converter.toIstanbul());
    converter.destroy();
  };
  // Most of each file is Node's own modules; a process that loaded no project file (npm, a runner's parent)
  // is skipped without parsing.
  // Node names a module by its real path: a root reached through a symlink shows up under the real one.
  const projectUrls = [...new Set([root, realRoot(root)])].map((r) => pathToFileURL(r).href);
  for (const name of (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.json'))) {
    let scripts: V8Script[];
    try {
      const text = await readFile(join(dir, name), 'utf8');
      if (!projectUrls.some((url) => text.includes(url))) continue;
      scripts = (JSON.parse(text) as { result: V8Script[] }).result;
    } catch {
      continue; // a process killed while writing leaves a torn file
    }
    for (const script of scripts) {
      const rel = projectPath(root, script.url);
      if (!rel || !include(rel)) continue;
      await apply(rel, script.functions);
    }
  }
  return fromCoverageMap(map, root);
}
