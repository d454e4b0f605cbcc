import { readFile } from 'node:fs/promises';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isSuspectSource } from './source-paths.js';

/**
 * A one-line function's own calls as a spectrum key, `file:line:fn<offset>`, beside its line's `file:line`. A
 * line is counted as run when the code around the function runs (`.replace(re, m => m)` runs its line whenever
 * the chain does), so only V8's count of the function itself says whether a test called it.
 */
export const callKey = (file: string, line: number, offset: number): string => `${file}:${line}:fn${offset}`;

/** A call key's parts, or null for a line's key. */
export function parseCallKey(key: string): { file: string; line: number; offset: number } | null {
  const m = /^(.*):(\d+):fn(\d+)$/.exec(key);
  return m ? { file: m[1]!, line: Number(m[2]), offset: Number(m[3]) } : null;
}

interface Script {
  url: string;
  functions: { ranges: { startOffset: number; endOffset: number; count: number }[] }[];
}

/**
 * The call keys of the one-line functions a take ran, in a script V8 ran as the file is (its offsets are the
 * file's: not a runner's transform of it). Each file is read once per `texts`.
 */
export async function oneLineCalls(
  root: string,
  script: Script,
  texts: Map<string, Promise<string | null>>,
): Promise<string[]> {
  if (!script.url.startsWith('file:')) return [];
  const path = fileURLToPath(script.url);
  const file = relative(root, path).split('\\').join('/');
  if (file.startsWith('..') || !isSuspectSource(file)) return [];
  if (!texts.has(path))
    texts.set(
      path,
      readFile(path, 'utf8').catch(() => null),
    );
  const text = await texts.get(path)!;
  if (text === null) return [];
  const keys: string[] = [];
  for (const f of script.functions) {
    const range = f.ranges[0];
    if (!range || range.count === 0 || range.endOffset > text.length) continue;
    const body = text.slice(range.startOffset, range.endOffset);
    if (body.includes('\n')) continue;
    keys.push(callKey(file, lineAt(text, range.startOffset), range.startOffset));
  }
  return keys;
}

const lineAt = (text: string, offset: number): number => {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
};
