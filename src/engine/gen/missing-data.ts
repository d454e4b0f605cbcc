import { existsSync, readFileSync } from 'node:fs';
import { basename, isAbsolute, join } from 'node:path';
import { importsOf } from './l0/imports.js';

// The path a runner's "no such file" failure names: Python's FileNotFoundError, Node's ENOENT, Go's *PathError.
const MISSING = [
  /No such file or directory: '([^']+)'/,
  /ENOENT: no such file or directory, \w+ '([^']+)'/,
  /\b(?:open|stat|lstat|readdir) ([^\s:]+): no such file or directory/,
];

/**
 * Why a new test that fails every run cannot be fixed in the code: it reads a file or folder of its own that is not
 * in the repository (toml's test_invalid_tests lists toml-test/tests/invalid/, data its tarball does not ship), the
 * same fault as a file that reads a missing fixture when it loads. Null when the failure is anything else, or the
 * missing path is not one the test file names (the code under test failing to find a file may be the bug).
 */
export function missingTestData(root: string, file: string, message: string | undefined): string | null {
  if (!message) return null;
  const path = MISSING.map((re) => re.exec(message)?.[1]).find(Boolean);
  if (!path) return null;
  if (existsSync(isAbsolute(path) ? path : join(root, path))) return null;
  const name = basename(path.replace(/[\\/]+$/, ''));
  let text = '';
  try {
    text = readFileSync(join(root, file), 'utf8');
  } catch {
    return null;
  }
  return name && text.includes(name) ? path : null;
}

// V8's words for calling what an import did not provide: `coerceNumber is not a function`, and through vitest's
// module runner `(0 , __vite_ssr_import_2__.coerceNumber) is not a function`.
const NOT_CALLABLE = /\b([A-Za-z_$][\w$]*)\)? is not a (?:function|constructor)\b/;

/**
 * The name a new test failing every run imports and calls though the module does not provide it (vitest and
 * CommonJS give `undefined` for a named import that does not exist, so the failure comes at the call): a
 * hallucinated API that L0 could not see statically (a module behind `export *`). Null otherwise.
 */
export function missingImportedName(root: string, file: string, message: string | undefined): string | null {
  const name = message ? NOT_CALLABLE.exec(message)?.[1] : undefined;
  if (!name) return null;
  let text = '';
  try {
    text = readFileSync(join(root, file), 'utf8');
  } catch {
    return null;
  }
  return importsOf(text).some((use) => use.names.includes(name)) ? name : null;
}
