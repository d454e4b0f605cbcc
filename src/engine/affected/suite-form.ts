import { basename } from 'node:path';

/** A selection put in the form the user's full command runs its tests. */
export interface SuiteForm {
  /** The files to run: the selected ones the full run reported tests from, or their compiled counterparts. */
  files: string[];
  /** Selected files the full command never runs as tests (tsd's `*.test-d.ts` beside tap's tests). */
  leftOut: string[];
  /** Selected source files replaced by the compiled file the full run ran (`src/test/v7.test.ts` → `dist/esm/test/v7.test.js`). */
  compiled: [source: string, runs: string][];
}

/** `dist/esm/test/v7.test.js` → `dist/esm/test/v7.test`; a declaration's `.d.ts` is an extension too. */
function stem(file: string): string {
  return file.replace(/(\.d)?\.[cm]?[jt]sx?$|\.py$/, '');
}

/**
 * The compiled files among `suite` that `source` builds to: same name and the longest shared tail of folders
 * (`src/test/v7.test.ts` and `dist/esm/test/v7.test.js` share `test/v7.test`). Several when the build emits
 * more than one form (esm and cjs) and the full run ran both.
 */
function compiledFrom(source: string, suite: readonly string[]): string[] {
  const parts = stem(source).split('/');
  const named = suite.filter((file) => basename(stem(file)) === parts.at(-1));
  for (let from = 0; from < parts.length; from++) {
    const tail = parts.slice(from).join('/');
    const found = named.filter((file) => stem(file) === tail || stem(file).endsWith(`/${tail}`));
    if (found.length > 0) return found;
  }
  return [];
}

/**
 * Puts an affected selection in the form the full command runs its tests, known from the runner's own report
 * of the full run (`suite`: the files that reported tests): a file it ran stays; a source file whose compiled
 * counterpart it ran becomes that file; a file it never ran as a test (a type test run by tsd, not by the
 * runner) is left out, since the runner would fail on it outside any test.
 */
export function inSuiteForm(selected: readonly string[], suite: readonly string[]): SuiteForm {
  const ran = new Set(suite);
  const files = new Set<string>();
  const leftOut: string[] = [];
  const compiled: [string, string][] = [];
  for (const file of selected) {
    if (ran.has(file)) {
      files.add(file);
      continue;
    }
    const built = compiledFrom(file, suite);
    if (built.length === 0) leftOut.push(file);
    for (const runs of built) {
      files.add(runs);
      compiled.push([file, runs]);
    }
  }
  return { files: [...files].sort(), leftOut, compiled };
}
