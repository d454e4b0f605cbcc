import { readFile } from 'node:fs/promises';
import parseLcov from 'lcov-parse';
import type { CoverageData } from './model.js';
import { keepFiles, repoRelative } from './paths.js';

function parse(text: string): Promise<parseLcov.LcovFile[]> {
  return new Promise((resolve) => parseLcov(text, (error, data) => resolve(error || !data ? [] : data)));
}

/**
 * Reads an lcov tracefile (`lcov.info`: SF, DA and BRDA records, written by istanbul, c8, nyc, vitest, and many
 * tools of other languages) into line and branch coverage. Relative SF paths start at `base`.
 */
export async function readLcov(path: string, root: string, include: (file: string) => boolean, base = root): Promise<CoverageData> {
  const text = await readFile(path, 'utf8').catch(() => '');
  // lcov-parse takes a string without a record for a file name to open.
  if (!text.includes('end_of_record')) return {};
  const out: CoverageData = {};
  for (const record of await parse(text)) {
    const file = repoRelative(root, record.file, base);
    const f = (out[file] ??= { lines: {}, branches: [] });
    for (const { line, hit } of record.lines.details) f.lines[line] = Math.max(f.lines[line] ?? 0, hit);
    // BRDA's block and branch numbers tell apart the branches of one line.
    for (const b of record.branches.details) f.branches.push([b.line, b.taken > 0, b.block * 1000 + b.branch]);
  }
  return keepFiles(out, include);
}
