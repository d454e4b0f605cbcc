import { readFile } from 'node:fs/promises';
import type { CoverageData } from './model.js';
import { keepFiles, repoRelative } from './paths.js';

interface CoveragePyFile {
  executed_lines?: number[];
  missing_lines?: number[];
  executed_branches?: [number, number][];
  missing_branches?: [number, number][];
}

/**
 * Reads coverage.py's JSON report (`coverage json`): executed and missing lines, and with `--branch` the arcs
 * taken and missed, each `[from line, to line]` (the destination tells apart the branches of one line).
 */
export async function readCoveragePyJson(path: string, root: string, include: (file: string) => boolean, base = root): Promise<CoverageData> {
  let raw: { files?: Record<string, CoveragePyFile> };
  try {
    raw = JSON.parse(await readFile(path, 'utf8')) as typeof raw;
  } catch {
    return {};
  }
  const out: CoverageData = {};
  for (const [name, f] of Object.entries(raw.files ?? {})) {
    const lines: Record<number, number> = {};
    for (const l of f.missing_lines ?? []) lines[l] = 0;
    for (const l of f.executed_lines ?? []) lines[l] = 1;
    const branches: CoverageData[string]['branches'] = [
      ...(f.executed_branches ?? []).map(([from, to]): [number, boolean, number] => [from, true, to]),
      ...(f.missing_branches ?? []).map(([from, to]): [number, boolean, number] => [from, false, to]),
    ];
    out[repoRelative(root, name, base)] = { lines, branches };
  }
  return keepFiles(out, include);
}
