import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TEST_CASE } from '../guard/patterns.js';
import type { Repo } from '../git.js';
import { caseFor, casesOf, languageOf, removeCases, testCount, type CaseSpan } from './cases/index.js';
import { isTestFileProper } from './source-files.js';

/** What dropping some tests did to one file. */
export interface DropOutcome {
  file: string;
  removed: string[];
  /** The whole file went (no test left in it, or a rejected test that could not be told apart in it). */
  fileGone: boolean;
  why?: string;
}

/**
 * Removes the given tests (paths as the runner reports them, or as L0 names them) from a generated test file.
 * A file left without tests goes: deleted when new, back to its committed text when it was there before.
 * A test that cannot be placed in the file takes the file with it: rejected code is never committed.
 */
export async function dropTests(
  repo: Repo,
  file: string,
  paths: readonly string[][],
  keepFile = true,
): Promise<DropOutcome> {
  const path = join(repo.root, file);
  if (!existsSync(path)) return { file, removed: [], fileGone: true };
  const text = readFileSync(path, 'utf8');
  const { cases } = casesOf(file, text);
  const spans: CaseSpan[] = [];
  for (const p of paths) {
    const span = caseFor(cases, p);
    if (!span) {
      await repo.restoreFiles([file]);
      return {
        file,
        removed: [],
        fileGone: true,
        why: `"${p.join(' > ')}" could not be found in the file to remove it alone`,
      };
    }
    spans.push(span);
  }
  const { text: left, removed, left: count } = removeCases(file, text, spans);
  if (!keepFile || (count === 0 && !hasOtherTests(file, left))) {
    await repo.restoreFiles([file]);
    return { file, removed, fileGone: true, why: keepFile ? 'no test left in it' : undefined };
  }
  writeFileSync(path, left);
  return { file, removed, fileGone: false };
}

/** A test call fixcycle cannot name (a computed title, `it.each`) still makes a file hold a test. */
function hasOtherTests(file: string, text: string): boolean {
  return languageOf(file) === 'js' && text.split('\n').some((l) => TEST_CASE.test(l));
}

/** True when a test file holds no test at all (imports and empty describes only): never worth committing. */
export function holdsNoTest(root: string, file: string): boolean {
  if (!isTestFileProper(file) || !languageOf(file)) return false;
  const path = join(root, file);
  if (!existsSync(path)) return false;
  const text = readFileSync(path, 'utf8');
  return testCount(file, text) === 0 && !hasOtherTests(file, text);
}
