import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CoverageData } from './model.js';

/** The module path go.mod declares, which prefixes every file in a cover profile. */
async function modulePath(root: string): Promise<string | null> {
  const text = await readFile(join(root, 'go.mod'), 'utf8').catch(() => '');
  return /^module\s+(\S+)/m.exec(text)?.[1] ?? null;
}

/**
 * Reads a `go test -coverprofile` file (`mode:` line, then `file:l.c,l.c statements count` blocks) into line
 * coverage of repository-relative files. Go profiles carry no branch data, so every file's branches are empty.
 */
export async function readGoProfile(path: string, root: string, include: (file: string) => boolean): Promise<CoverageData> {
  const text = await readFile(path, 'utf8').catch(() => '');
  const mod = await modulePath(root);
  const out: CoverageData = {};
  for (const line of text.split('\n')) {
    const m = /^(.+\.go):(\d+)\.\d+,(\d+)\.\d+ \d+ (\d+)$/.exec(line.trim());
    if (!m) continue;
    const file = mod && m[1]!.startsWith(`${mod}/`) ? m[1]!.slice(mod.length + 1) : m[1]!;
    if (!include(file)) continue;
    const f = (out[file] ??= { lines: {}, branches: [] });
    const count = Number(m[4]);
    for (let l = Number(m[2]); l <= Number(m[3]); l++) f.lines[l] = Math.max(f.lines[l] ?? 0, count);
  }
  return out;
}
