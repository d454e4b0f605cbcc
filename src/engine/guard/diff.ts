/** One file of a git diff, as the guard reads it. */
export interface FileDiff {
  /** Path before the change (repository-relative); equals `newPath` unless renamed. */
  oldPath: string;
  newPath: string;
  status: 'added' | 'deleted' | 'renamed' | 'modified';
  /** Lines added and removed, without their +/- prefix. */
  added: string[];
  removed: string[];
  /** The new file's line number (1-based) of each added line, and where each removed line was (the new line it stood before). */
  addedAt?: number[];
  removedAt?: number[];
  /** File mode after the change (`120000` is a symbolic link). */
  newMode?: string;
  binary: boolean;
}

/** `"a/x y.js"` or `a/x.js` -> `x.js` (git quotes paths with unusual characters). */
function unquote(path: string): string {
  let p = path.replace(/\t$/, '').trim();
  if (p.startsWith('"') && p.endsWith('"')) p = JSON.parse(p) as string;
  return p.replace(/^[ab]\//, '');
}

/** The two paths of a `diff --git a/x b/x` header; unquoted paths with spaces are split in the middle. */
function headerPaths(rest: string): [string, string] {
  const quoted = /^(".*?"|\S+) (".*?"|\S+)$/.exec(rest);
  if (quoted) return [unquote(quoted[1]!), unquote(quoted[2]!)];
  const half = (rest.length - 1) / 2;
  const a = rest.slice(0, half);
  const b = rest.slice(half + 1);
  return a.slice(2) === b.slice(2) ? [unquote(a), unquote(b)] : [unquote(rest), unquote(rest)];
}

/**
 * Parses a unified git diff (`git diff HEAD`, `git diff --no-index /dev/null file`) into its files, with
 * git's extended headers: new and deleted files, renames, modes.
 */
export function parseGitDiff(diff: string): FileDiff[] {
  const files: FileDiff[] = [];
  let current: FileDiff | null = null;
  let inHunk = false;
  let newLine = 1;
  for (const line of diff.split('\n')) {
    if (line.startsWith('diff --git ')) {
      const [oldPath, newPath] = headerPaths(line.slice('diff --git '.length));
      current = {
        oldPath,
        newPath,
        status: 'modified',
        added: [],
        removed: [],
        addedAt: [],
        removedAt: [],
        binary: false,
      };
      files.push(current);
      inHunk = false;
      continue;
    }
    if (!current) continue;
    if (line.startsWith('@@')) {
      inHunk = true;
      newLine = Number(/\+(\d+)/.exec(line)?.[1] ?? 1);
      continue;
    }
    if (inHunk) {
      if (line.startsWith('+')) {
        current.added.push(line.slice(1));
        current.addedAt!.push(newLine++);
      } else if (line.startsWith('-')) {
        current.removed.push(line.slice(1));
        current.removedAt!.push(newLine);
      } else if (line.startsWith(' ')) newLine++;
      continue;
    }
    if (line.startsWith('new file mode ')) {
      current.status = 'added';
      current.newMode = line.slice('new file mode '.length).trim();
    } else if (line.startsWith('deleted file mode ')) current.status = 'deleted';
    else if (line.startsWith('new mode ')) current.newMode = line.slice('new mode '.length).trim();
    else if (line.startsWith('rename from ')) {
      current.status = 'renamed';
      current.oldPath = unquote(line.slice('rename from '.length));
    } else if (line.startsWith('rename to ')) current.newPath = unquote(line.slice('rename to '.length));
    else if (line.startsWith('--- ') && !line.startsWith('--- /dev/null')) current.oldPath = unquote(line.slice(4));
    else if (line.startsWith('+++ ') && !line.startsWith('+++ /dev/null')) current.newPath = unquote(line.slice(4));
    else if (line.startsWith('Binary files ')) current.binary = true;
  }
  // `git diff --no-index /dev/null file` names the file on both sides of its header.
  for (const f of files) {
    if (f.status === 'added') f.oldPath = f.newPath;
    if (f.status === 'deleted') f.newPath = f.oldPath;
  }
  return files;
}
