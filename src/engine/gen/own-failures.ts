import type { RunError } from '../types.js';
import { errorKey } from './error-key.js';
import type { SuiteBefore } from './phase-context.js';
import type { KeptTest } from './state.js';

/**
 * Which failures after gen are the project's own: a test that failed before generation, or one that did not pass
 * then (its package did not build, its file did not load) and is none of gen's kept tests. A test that passed before
 * gen and fails after is gen's to answer for, as is every kept test. Runners name a test with its file or without
 * (go by package, node:test by title), so a kept test (`<file>::<path>`) is matched by its path too.
 */
export function ownFailurePredicate(
  before: SuiteBefore | undefined,
  kept: readonly KeptTest[],
): ((id: string, name: string) => boolean) | null {
  if (!before) return null;
  const failed = new Set(before.failing);
  const passed = new Set(before.passing ?? []);
  const keptIds = new Set(kept.map((k) => k.test));
  const pathOf = (id: string): string => (id.includes('::') ? id.slice(id.indexOf('::') + 2) : id);
  const keptPaths = new Set(kept.map((k) => pathOf(k.test)));
  const isGens = (id: string, name: string): boolean =>
    keptIds.has(id) || keptPaths.has(pathOf(id)) || keptPaths.has(name);
  if (failed.size === 0 && (before.errors ?? 0) === 0) return null;
  return (id, name) => failed.has(id) || (!passed.has(id) && !isGens(id, name));
}

/**
 * Which errors outside tests after gen are the project's own: the same ones as before generation (a lint or type
 * check step of the test script that already failed). They are reported, never counted against gen.
 */
export function ownErrorPredicate(before: SuiteBefore | undefined): ((error: RunError) => boolean) | null {
  const keys = new Set(before?.error_keys ?? []);
  if (keys.size === 0) return null;
  return (error) => keys.has(errorKey(error));
}
