import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { buildImportGraph } from '../affected/js-graph.js';
import { findDependents } from '../affected/reverse-reach.js';
import { isSuspectSource } from './source-paths.js';

/** What the failing test files load, and the passing test files that load the most of it. */
export interface Reach {
  sources: string[];
  /** Other test files loading the same sources, most shared sources first. */
  neighbours: string[];
}

function closure(dependencies: Map<string, string[]>, starts: readonly string[]): Set<string> {
  const reached = new Set<string>(starts);
  const queue = [...starts];
  for (let i = 0; i < queue.length; i++) {
    for (const next of dependencies.get(queue[i]!) ?? []) {
      if (reached.has(next) || next.includes('node_modules/')) continue;
      reached.add(next);
      queue.push(next);
    }
  }
  return reached;
}

/**
 * The source files the failing test files load, directly or through other modules, and the other test
 * files that load them, by the JS/TS import graph affected-test selection uses. Empty for other languages.
 */
export async function reachOf(root: string, testFiles: readonly string[]): Promise<Reach> {
  if (!testFiles.some((f) => /\.[cm]?[jt]sx?$/.test(f))) return { sources: [], neighbours: [] };
  const modules = join(root, 'node_modules');
  const graph = await buildImportGraph(root, existsSync(modules) ? join(modules, '.cache', 'fixcycle') : null, []);
  const sources = [...closure(graph.dependencies, testFiles)].filter(isSuspectSource).sort();
  const failing = new Set(testFiles);
  const candidates = [...findDependents(graph.dependencies, sources)].filter(
    (f) => !failing.has(f) && !isSuspectSource(f) && !f.includes('node_modules/'),
  );
  const shared = new Map(
    candidates.map((f) => [f, [...closure(graph.dependencies, [f])].filter((s) => sources.includes(s)).length]),
  );
  // Only files some runner would take for a test: a helper that loads the sources is not one.
  const tests = candidates.filter((f) =>
    /(^|\/)(test|tests|__tests__|spec)\/|\.(test|spec)\.[cm]?[jt]sx?$|(^|\/)tests?\.[cm]?[jt]sx?$/.test(f),
  );
  return { sources, neighbours: tests.sort((a, b) => shared.get(b)! - shared.get(a)! || a.localeCompare(b)) };
}
