import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import type { NormalizedResult, NotHere } from '../types.js';
import type { AbsentSubmodule } from './absent-submodules.js';

// The file a failure could not find, as each runtime words it: node's fs (`ENOENT: ..., scandir '<path>'`),
// Python's FileNotFoundError, Go's *PathError, Java's FileNotFoundException.
const MISSING_FILE = [
  /\bENOENT: no such file or directory, \w+ '([^']+)'/g,
  /\[Errno 2\] No such file or directory: '([^']+)'/g,
  /\b(?:open|stat|lstat|readdir|opendir|readlink) (\S+): no such file or directory/g,
  /FileNotFoundException: (\S[^\n]*?) \(No such file or directory\)/g,
];

/**
 * The submodule whose files a failure could not find: the message names a missing file under the folder of a
 * submodule that is not checked out. A missing file anywhere else (a fixture the code renamed, a path built
 * wrongly) is the code's to fix and gives undefined, as does a failure that names no missing file. A relative
 * path is read from the root and from `from`, the folders the test may have run in (go test runs in its package).
 */
export function readsAbsentSubmodule(
  text: string,
  root: string,
  absent: readonly AbsentSubmodule[],
  from: readonly string[] = [],
): AbsentSubmodule | undefined {
  if (absent.length === 0) return undefined;
  for (const pattern of MISSING_FILE) {
    for (const match of text.matchAll(pattern)) {
      const file = match[1]!;
      for (const base of isAbsolute(file) ? [root] : [root, ...from]) {
        const inTree = relative(root, resolve(base, file)).split(sep).join('/');
        const found = absent.find((module) => inTree === module.path || inTree.startsWith(`${module.path}/`));
        if (found) return found;
      }
    }
  }
  return undefined;
}

/** What a failure that reads a submodule not checked out lacks, and how to get it. */
export function submoduleNotHere(module: AbsentSubmodule): NotHere {
  const remedy = module.recorded
    ? `check it out with \`git submodule update --init ${module.path}\``
    : `the tree records no commit for it (a source archive), so clone it there${module.url ? ` (\`git clone ${module.url} ${module.path}\`)` : ''}`;
  return { what: `the git submodule \`${module.path}\` (listed in .gitmodules, not checked out)`, remedy };
}

/**
 * The run with each failed test and each error outside tests that failed only because it reads a submodule that
 * is not checked out marked as such: what the stop names, and what the agent is never asked to fix.
 */
export function markAbsentSubmoduleData(
  result: NormalizedResult,
  root: string,
  absent: readonly AbsentSubmodule[],
): NormalizedResult {
  if (absent.length === 0) return result;
  const notHere = (text: string, where: { file?: string; package?: string }): NotHere | undefined => {
    const from = [
      where.file ? dirname(resolve(root, where.file)) : undefined,
      where.package ? resolve(root, where.package) : undefined,
    ].filter((dir): dir is string => dir !== undefined);
    const module = readsAbsentSubmodule(text, root, absent, from);
    return module ? submoduleNotHere(module) : undefined;
  };
  return {
    ...result,
    tests: result.tests.map((test) => {
      const found = test.status === 'failed' ? notHere(`${test.message ?? ''}\n${test.stack ?? ''}`, test) : undefined;
      return found ? { ...test, notHere: found } : test;
    }),
    errors: result.errors.map((error) => {
      const found = notHere(error.message, error);
      return found ? { ...error, notHere: found } : error;
    }),
  };
}
