import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Repo } from '../git.js';
import { caseFor, casesOf, removeCases, type CaseSpan } from './cases/index.js';

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
 * With `keepFile` false the whole file goes: deleted when new, back to its committed text when it was there before.
 * A test that cannot be placed in the file takes the file with it: rejected code is never committed.
 */
export async function dropTests(
  repo: Pick<Repo, 'root' | 'restoreFiles'>,
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
  const { text: left, removed } = removeCases(file, text, spans);
  if (!keepFile) {
    await repo.restoreFiles([file]);
    return { file, removed, fileGone: true };
  }
  // Whether what is left holds a test is the runner's to say (apply-drops.ts runs the file again).
  writeFileSync(path, left);
  return { file, removed, fileGone: false };
}
