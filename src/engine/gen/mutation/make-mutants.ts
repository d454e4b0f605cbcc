import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { acornSites } from './mutate-acorn.js';
import { goSites } from './mutate-go.js';
import { jsSites } from './mutate-js.js';
import { pythonSites } from './mutate-python.js';
import { MAX_MUTANTS_PER_MODULE, pickSites } from './pick-sites.js';
import type { Mutant, MutationSite } from './types.js';

/** The language fixcycle can mutate a module in, by its name; null for any other file. */
export function mutationLanguage(file: string): 'js' | 'python' | 'go' | null {
  if (/\.(m|c)?[jt]sx?$/.test(file) && !/\.d\.[cm]?ts$/.test(file)) return 'js';
  if (file.endsWith('.py')) return 'python';
  if (file.endsWith('.go') && !file.endsWith('_test.go')) return 'go';
  return null;
}

/**
 * The mutants of one changed module: at most 20 small changes of its changed lines, spread over them, each the
 * module's whole text with one change. None for a language fixcycle cannot mutate. `python` runs Python's `ast`.
 * `reached`: whether a new test runs a line (the coverage runs said so); the mutants are made on those lines.
 * `fresh`: whether no existing test runs it; those lines are mutated first, since only a new test can kill a
 * mutant there (a module's top-level code, run by every test that imports it, tells little).
 */
export async function makeMutants(
  root: string,
  change: { file: string; lines: readonly number[] },
  python: string,
  reached: (line: number) => boolean = () => true,
  fresh: (line: number) => boolean = () => false,
): Promise<Mutant[]> {
  const language = mutationLanguage(change.file);
  if (!language) return [];
  const text = readFileSync(join(root, change.file), 'utf8');
  const lines = new Set(change.lines);
  let sites: MutationSite[];
  // acorn for plain JavaScript; the TypeScript compiler, slower to load, for TypeScript and JSX.
  if (language === 'js')
    sites =
      (/\.[cm]?js$/.test(change.file) ? acornSites(text, lines) : null) ?? (await jsSites(change.file, text, lines));
  else if (language === 'python') sites = pythonSites(python, text, lines);
  else sites = goSites(text, lines);
  const reachable = sites.filter((s) => reached(s.line));
  const first = pickSites(
    change.file,
    reachable.filter((s) => fresh(s.line)),
  );
  const rest = pickSites(
    change.file,
    reachable.filter((s) => !fresh(s.line)),
    MAX_MUTANTS_PER_MODULE - first.length,
  );
  return [...first, ...rest].sort((a, b) => a.line - b.line);
}
