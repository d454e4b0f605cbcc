import { existsSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';

/** What `selectAffectedTests` needs to know about one fix. */
export interface AffectedTestsInput {
  /** The project root; the runner runs here and every path below is relative to it. */
  cwd: string;
  /** `vitest`, `jest`, `mocha`, `tape`, `node-test`, `pytest`, `go`, `cargo` or `command`. */
  runner: string;
  /** The files the fix changed (from git), relative to `cwd`. */
  changedFiles: string[];
  /** Every test file of the suite when the runner knows them; by default found by naming conventions. */
  testFiles?: string[];
  /** Test files that failed last time; always selected (when they still exist). */
  lastFailedFiles: string[];
  /**
   * Where the JS/TS import graph is kept between calls. Default: `node_modules/.cache/fixcycle`
   * under `cwd` when `node_modules` exists, otherwise the graph is rebuilt on each call.
   */
  cacheDir?: string;
}

/** The tests to run and why, in words for the iteration record and the status line. */
export interface AffectedSelection {
  /**
   * Test files relative to `cwd`, sorted (for `go`: package folders such as `./pkg/util`), or
   * `'all'` when only the full suite is trustworthy. May be empty when nothing the tests load changed.
   */
  files: string[] | 'all';
  reason: string;
}

/** A path as the selection speaks of it: relative to `cwd`, `/`-separated, no leading `./`. */
export function toProjectPath(cwd: string, path: string): string {
  const rel = isAbsolute(path) ? relative(cwd, path) : path;
  const slashed = sep === '/' ? rel : rel.split(sep).join('/');
  return slashed.replace(/^(\.\/)+/, '');
}

/** The last failures that still exist (a deleted test file cannot be run). */
export function existingFiles(cwd: string, files: string[]): string[] {
  return files.filter((file) => existsSync(join(cwd, file)));
}

/** `1 test file` / `3 test files`. */
export function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/** `src/a.ts` for one file, `src/a.ts and 2 more` for several. */
export function nameFiles(files: string[]): string {
  if (files.length <= 1) return files[0] ?? 'nothing';
  return `${files[0]} and ${files.length - 1} more`;
}

/** Joins the selected groups into one sorted, de-duplicated list. */
export function unite(...groups: Iterable<string>[]): string[] {
  const all = new Set<string>();
  for (const group of groups) for (const file of group) all.add(file);
  return [...all].sort();
}
