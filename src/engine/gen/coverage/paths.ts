import { realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';

const realRoots = new Map<string, string>();

/** The root's real path: Node and the coverage tools name files by their real paths, not by a symlinked root's. */
export function realRoot(root: string): string {
  let real = realRoots.get(root);
  if (real === undefined) {
    try {
      real = realpathSync(root);
    } catch {
      real = root;
    }
    realRoots.set(root, real);
  }
  return real;
}

/**
 * `abs` relative to `root`, whether a report names it under the root as given or under the root's real path (a
 * root reached through a symlink: a team worktree inside the linked `.workflow`).
 */
export function relativeToRoot(root: string, abs: string): string {
  const rel = relative(root, abs);
  if (!rel.startsWith('..') && !isAbsolute(rel)) return rel;
  const real = realRoot(root);
  const fromReal = real === root ? rel : relative(real, abs);
  return fromReal.startsWith('..') || isAbsolute(fromReal) ? rel : fromReal;
}

/** A report's file path as a repository-relative path with forward slashes (`base`: where the report's relative paths start). */
export function repoRelative(root: string, path: string, base = root): string {
  const abs = isAbsolute(path) ? path : resolve(base, path);
  return relativeToRoot(root, abs).split('\\').join('/');
}

/** Keeps the files `include` accepts and that lie inside the repository. */
export function keepFiles<T>(data: Record<string, T>, include: (file: string) => boolean): Record<string, T> {
  return Object.fromEntries(Object.entries(data).filter(([file]) => !file.startsWith('../') && include(file)));
}
