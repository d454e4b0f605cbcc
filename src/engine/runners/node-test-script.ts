import { dirname, join, normalize } from 'node:path';
import { scanReferences } from '../affected/js-token-references.js';
import type { ProjectFacts } from './project.js';

/**
 * Whether the script `node <file>` runs is a node:test file: it imports `node:test`, or one of the project's own
 * modules it imports does (`test.js` importing `./test/index.js`). Its tests then run in the script's process
 * under node's runner, which honours `--test-reporter` as `node --test` does.
 */
export function importsNodeTest(project: ProjectFacts, file: string): boolean {
  if (!/\.[cm]?[jt]s$/.test(file) || file.startsWith('/')) return false;
  const own = references(project, file);
  if (own === null) return false;
  if (own.includes('node:test')) return true;
  return own
    .filter((specifier) => specifier.startsWith('./') || specifier.startsWith('../'))
    .some((specifier) => references(project, join(dirname(file), specifier))?.includes('node:test') === true);
}

/** The modules a project file loads (null when it is not there); `./test` resolves to `./test/index.js`. */
function references(project: ProjectFacts, file: string): string[] | null {
  const path = normalize(file);
  if (path.startsWith('..')) return null;
  const candidates = /\.[cm]?[jt]s$/.test(path) ? [path] : [`${path}.js`, join(path, 'index.js')];
  const found = candidates.find((candidate) => project.exists(candidate));
  if (found === undefined) return null;
  return scanReferences(project.read(found), true).map((reference) => reference.specifier);
}
