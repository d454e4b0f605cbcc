import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { buildImportGraph, type ImportGraph } from './js-graph.js';
import { findDependents } from './reverse-reach.js';
import { isRunnerEntryFile } from './select-all-triggers.js';
import { count, existingFiles, nameFiles, unite, type AffectedSelection } from './selection.js';
import { isJsTestFile } from './test-file-patterns.js';

/** The JS/TS half of `selectAffectedTests`, paths already relative to `cwd`. */
export interface JsSelectionInput {
  cwd: string;
  changedFiles: string[];
  testFiles?: string[];
  lastFailedFiles: string[];
  cacheDir: string | null;
}

/**
 * The test files that load a changed file at run time, directly or through other modules, by the
 * project's import graph (type-only imports left out). Everything runs when a changed file is not
 * in the graph, or when a runner config or setup file loads it.
 */
export async function selectJsTests(input: JsSelectionInput): Promise<AffectedSelection> {
  const { cwd, changedFiles } = input;
  const graph = await buildImportGraph(cwd, input.cacheDir, changedFiles);
  const suite = input.testFiles ? new Set(input.testFiles) : null;
  const isTest = (file: string): boolean => (suite ? suite.has(file) : isJsTestFile(file));
  const targets = new Set<string>();
  for (const list of graph.dependencies.values()) for (const target of list) targets.add(target);

  const starts: string[] = [];
  const changedTests: string[] = [];
  for (const file of changedFiles) {
    const exists = existsSync(join(cwd, file));
    if (isTest(file)) {
      if (exists) changedTests.push(file);
    }
    if (graph.dependencies.has(file) || targets.has(file)) starts.push(file);
    else if (graph.formerImporters.has(file)) starts.push(...graph.formerImporters.get(file)!);
    else if (!isTest(file)) {
      const why = exists
        ? 'is not in the import graph (no JS/TS module loads it)'
        : 'was deleted and no cached graph knows its importers';
      return { files: 'all', reason: `${file} ${why}; running every test. ${graphNote(graph)}` };
    }
  }

  const reached = findDependents(graph.dependencies, starts);
  const entry = [...reached].find(isRunnerEntryFile);
  if (entry) {
    return {
      files: 'all',
      reason: `${entry} loads ${nameFiles(starts)}, so every test may change; running every test. ${graphNote(graph)}`,
    };
  }
  const reachedTests = [...reached].filter((file) => isTest(file) && !changedTests.includes(file));
  const lastFailed = existingFiles(cwd, input.lastFailedFiles);
  const parts = [`${count(reachedTests.length, 'test file')} load ${nameFiles(changedFiles)}`];
  if (changedTests.length > 0) parts.push(`${count(changedTests.length, 'changed test file')}`);
  if (lastFailed.length > 0) parts.push(`${count(lastFailed.length, 'test file')} failed last time`);
  return {
    files: unite(reachedTests, changedTests, lastFailed),
    reason: `${parts.join('; ')}. ${graphNote(graph)}`,
  };
}

function graphNote({ stats }: ImportGraph): string {
  const cache =
    stats.cache === 'warm' ? `cache warm, ${stats.read} re-read` : stats.cache === 'cold' ? 'cache cold' : 'no cache';
  const saved = stats.saveError ? `; cache not saved: ${stats.saveError}` : '';
  return `(import graph of ${count(stats.files, 'file')}, ${cache}${saved})`;
}
