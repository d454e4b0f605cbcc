import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { functionsOf } from './functions.js';
import type { ScoredLine } from './rank.js';
import { isSuspectSource } from './source-paths.js';
import type { FunctionSpan } from './types.js';

/** Source files read at most, looking for the functions a failing test calls. */
const MAX_FILES = 200;

/**
 * The project's functions (not tests) `wanted` accepts by their own name (what the failing test code calls or
 * its name says), as lines with no score of their own: candidates the name link then ranks, where no coverage
 * says what the test ran (cargo).
 * Each file's functions are added to `functions`.
 */
export async function calledFunctions(
  root: string,
  wanted: (own: string) => boolean,
  functions: Map<string, FunctionSpan[]>,
): Promise<ScoredLine[]> {
  const listed = await execa('git', ['ls-files', '-z'], { cwd: root, reject: false, maxBuffer: 64 * 1024 * 1024 });
  if (listed.exitCode !== 0) return [];
  const files = listed.stdout.split('\0').filter(isSuspectSource).slice(0, MAX_FILES);
  const out: ScoredLine[] = [];
  for (const file of files) {
    let spans = functions.get(file);
    if (!spans) {
      const text = await readFile(join(root, file), 'utf8').catch(() => null);
      spans = text === null ? [] : await functionsOf(file, text).catch(() => []);
      functions.set(file, spans);
    }
    for (const span of spans) {
      const own = span.name.split(/\.|::| > /).at(-1)!;
      if (!span.test && wanted(own)) out.push({ file, line: span.start, score: 0, parts: {} });
    }
  }
  return out;
}
