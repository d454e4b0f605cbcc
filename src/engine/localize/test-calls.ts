import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Failure } from '../types.js';
import { enclosingFunction, functionsOf } from './functions.js';
import { stackLocations } from './stack-frames.js';
import { isSuspectSource } from './source-paths.js';

/** How many lines above the failing line still count as its neighbourhood. */
const NEAR = 2;
// `name(`, `.name(`, `::name(`, and Rust's `name::<T>(`: what a test calls. Keywords are not calls.
const CALL = /([A-Za-z_$][\w$]*)\s*(?:::<[^>]*>)?\s*\(/g;
const NOT_CALLS = new Set([
  'if',
  'for',
  'while',
  'switch',
  'catch',
  'function',
  'return',
  'typeof',
  'match',
  'assert',
  'assert_eq',
  'assert_ne',
  'expect',
  'equal',
  'deepEqual',
  'strictEqual',
  'deepStrictEqual',
  'ok',
  'is',
  'same',
  'test',
  'it',
  'describe',
  't',
  'Some',
  'Ok',
  'Err',
  'unwrap',
  'new',
  'toBe',
  'toEqual',
  'toStrictEqual',
]);

/**
 * The names the failing tests call in the test code that failed, weighed by closeness (the failing line and
 * the two above it 1, the rest of the test's body 1/2) and averaged over the failing tests whose test code was
 * found: a function every failing test calls on its failing line scores 1, one a single test of four calls
 * there 1/4. The test code is the innermost frame outside the code under test (a test file, a Rust `#[test]`
 * function). A hint that links a test to the code it names.
 */
export async function testCalls(failures: readonly Failure[], root: string): Promise<Map<string, number>> {
  const sums = new Map<string, number>();
  const texts = new Map<string, string | null>();
  let located = 0;
  for (const failure of failures) {
    const calls = new Map<string, number>();
    for (const at of stackLocations(failure, root)) {
      if (!texts.has(at.file)) texts.set(at.file, await readFile(join(root, at.file), 'utf8').catch(() => null));
      const text = texts.get(at.file);
      if (!text) continue;
      const spans = await functionsOf(at.file, text).catch(() => []);
      const span = enclosingFunction(spans, at.line);
      if (isSuspectSource(at.file) && !span?.test) continue;
      const lines = text.split('\n');
      const from = Math.max(1, span ? span.start : at.line - NEAR);
      for (let n = from; n <= Math.min(at.line, lines.length); n++)
        for (const m of lines[n - 1]!.matchAll(CALL)) {
          const name = m[1]!;
          if (NOT_CALLS.has(name)) continue;
          calls.set(name, Math.max(calls.get(name) ?? 0, at.line - n <= NEAR ? 1 : 0.5));
        }
      located++;
      break;
    }
    for (const [name, weight] of calls) sums.set(name, (sums.get(name) ?? 0) + weight);
  }
  return new Map([...sums].map(([name, sum]) => [name, sum / Math.max(1, located)]));
}
