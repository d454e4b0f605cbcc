import { isAbsolute, relative, resolve } from 'node:path';

/** A report's file path as a repository-relative path with forward slashes (`base`: where the report's relative paths start). */
export function repoRelative(root: string, path: string, base = root): string {
  const abs = isAbsolute(path) ? path : resolve(base, path);
  return relative(root, abs).split('\\').join('/');
}

/** Keeps the files `include` accepts and that lie inside the repository. */
export function keepFiles<T>(data: Record<string, T>, include: (file: string) => boolean): Record<string, T> {
  return Object.fromEntries(Object.entries(data).filter(([file]) => !file.startsWith('../') && include(file)));
}
