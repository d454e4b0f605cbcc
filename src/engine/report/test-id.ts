import { isAbsolute, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestCase } from '../types.js';

/** Joins a test's place in the report into its id: `<file>::<suite> > <name>`, or just the path when there is no file. */
export function makeTestId(file: string | undefined, path: readonly string[]): string {
  const joined = path.join(' > ');
  return file ? `${file}::${joined}` : joined;
}

/**
 * Makes ids unique in report order: the second `a::b` becomes `a::b (2)`.
 * Runners allow two tests of one name in one suite; order within a report is stable, so the suffix is too.
 */
export function uniquifyIds(tests: TestCase[]): TestCase[] {
  const seen = new Map<string, number>();
  for (const test of tests) {
    const count = (seen.get(test.id) ?? 0) + 1;
    seen.set(test.id, count);
    if (count > 1) test.id = `${test.id} (${count})`;
  }
  return tests;
}

// rustdoc names a doctest `src/lib.rs - module::Item::method (line 614)`, with ` - compile fail` (or another mode) after.
const DOCTEST = /^(.+ - .+) \(line (\d+)\)((?: - [\w ]+)?)$/;

/**
 * Doctest ids without their line: a fix above a doctest moves it, and the same doctest must keep its id (else it
 * reads as gone, and the fix as a regression). Doctests of one item are numbered in line order (libtest runs them
 * in parallel, so report order varies): `src/lib.rs - Item::take`, `src/lib.rs - Item::take (2)`.
 */
export function stableDoctestIds(tests: TestCase[]): TestCase[] {
  const byItem = new Map<string, { test: TestCase; line: number }[]>();
  for (const test of tests) {
    const match = DOCTEST.exec(test.id);
    if (!match) continue;
    const item = `${match[1]!}${match[3]!}`;
    const group = byItem.get(item) ?? [];
    group.push({ test, line: Number(match[2]) });
    byItem.set(item, group);
  }
  for (const [item, group] of byItem) {
    group.sort((a, b) => a.line - b.line);
    group.forEach(({ test }, i) => (test.id = i === 0 ? item : `${item} (${i + 1})`));
  }
  return tests;
}

/**
 * A report's file path as fixcycle stores it: `file://` URLs become paths, and paths under `rootDir`
 * become relative with `/` separators so ids match across machines and checkouts.
 */
export function normalizeFile(file: string | undefined, rootDir?: string): string | undefined {
  if (!file) return undefined;
  let path = file;
  if (path.startsWith('file://')) {
    try {
      path = fileURLToPath(path);
    } catch {
      return file;
    }
  }
  if (rootDir && isAbsolute(path)) {
    const rel = relative(rootDir, path);
    if (rel && !rel.startsWith('..') && !isAbsolute(rel)) path = rel;
  }
  return sep === '\\' ? path.split(sep).join('/') : path;
}

/** True when a name looks like a test file's path: what runners name a file that failed before any test ran. */
export function looksLikeFilePath(name: string): boolean {
  return /[\\/]/.test(name) && /\.(?:[cm]?[jt]sx?|py|go|rs|rb|java|kt|php|cs|swift)$/i.test(name.trim());
}
