import { existsSync, lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve } from 'node:path';

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** The deepest existing folder on the way to `path` (a deleted file's folder may be gone too). */
function existingAncestor(path: string): string {
  let dir = path;
  while (!existsSync(dir) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

/**
 * Why a changed path reaches outside the repository, or null: an absolute or `..` path, a symbolic link
 * (new or changed) whose target resolves outside, or a folder on the way that is such a link.
 */
export function outsideRepository(repo: string, file: string): string | null {
  if (isAbsolute(file) || file.split(/[\\/]/).includes('..')) return `${file} is a path outside the repository`;
  const root = realpathSync(repo);
  const path = resolve(repo, file);
  let stat;
  try {
    stat = lstatSync(path);
  } catch {
    stat = null;
  }
  if (stat?.isSymbolicLink()) {
    const target = resolve(dirname(path), readlinkSync(path));
    const real = existsSync(target) ? realpathSync(target) : target;
    if (!inside(root, real)) return `${file} is a symbolic link to ${real}, outside the repository`;
    return null;
  }
  const real = realpathSync(existingAncestor(stat ? path : dirname(path)));
  if (!inside(root, real)) return `${file} resolves to ${real}, outside the repository`;
  return null;
}
