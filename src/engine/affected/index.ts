import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { selectGoTests } from './select-go.js';
import { selectJsTests } from './select-js.js';
import { selectPythonTests } from './select-python.js';
import { findSelectAllTrigger } from './select-all-triggers.js';
import { count, existingFiles, toProjectPath, type AffectedSelection, type AffectedTestsInput } from './selection.js';

export type { AffectedSelection, AffectedTestsInput } from './selection.js';

const JS_RUNNERS = new Set(['vitest', 'jest', 'mocha', 'tape', 'node-test', 'ava', 'tap']);

/**
 * The tests affected by the files a fix changed, for a progressive (affected-only) iteration:
 * JS/TS runners by the import graph, pytest by the modules test files import, go by package.
 * The last failures are always in. Never throws: whenever a partial selection cannot be trusted
 * the answer is `'all'`, with the reason.
 */
export async function selectAffectedTests(input: AffectedTestsInput): Promise<AffectedSelection> {
  const { cwd, runner } = input;
  if (!existsSync(cwd) || !statSync(cwd).isDirectory()) {
    return { files: 'all', reason: `the project folder ${cwd} does not exist; running every test.` };
  }
  const changedFiles = [...new Set(input.changedFiles.map((f) => toProjectPath(cwd, f)))];
  const lastFailedFiles = input.lastFailedFiles.map((f) => toProjectPath(cwd, f));
  const testFiles = input.testFiles?.map((f) => toProjectPath(cwd, f));
  if (runner === 'cargo') return { files: 'all', reason: 'cargo tests build the whole crate; running every test.' };
  if (runner === 'command')
    return { files: 'all', reason: 'a plain --test-cmd cannot run a subset; running every test.' };
  if (!JS_RUNNERS.has(runner) && runner !== 'pytest' && runner !== 'go') {
    return { files: 'all', reason: `no affected-test selection for the ${runner} runner; running every test.` };
  }

  const trigger = findSelectAllTrigger(changedFiles);
  if (trigger)
    return {
      files: 'all',
      reason: `${trigger.file} is ${trigger.kind}, which every test depends on; running every test.`,
    };
  if (changedFiles.length === 0 && runner !== 'go') {
    const files = existingFiles(cwd, lastFailedFiles);
    return { files, reason: `no files changed; ${count(files.length, 'test file')} failed last time.` };
  }

  try {
    if (runner === 'pytest') return await selectPythonTests({ cwd, changedFiles, testFiles, lastFailedFiles });
    if (runner === 'go') return await selectGoTests({ cwd, changedFiles, testFiles, lastFailedFiles });
    const cacheDir = input.cacheDir ?? defaultCacheDir(cwd);
    return await selectJsTests({ cwd, changedFiles, testFiles, lastFailedFiles, cacheDir });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { files: 'all', reason: `could not work out the affected tests (${message}); running every test.` };
  }
}

/** `node_modules/.cache/fixcycle` where tools keep caches, or none for a project without node_modules. */
function defaultCacheDir(cwd: string): string | null {
  const modules = join(cwd, 'node_modules');
  return existsSync(modules) ? join(modules, '.cache', 'fixcycle') : null;
}
