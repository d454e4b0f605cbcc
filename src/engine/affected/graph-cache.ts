import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Target } from './js-resolve.js';

/** One runtime import of a file and where it led when last resolved (`undefined`: not resolved yet). */
export interface ImportEdge {
  specifier: string;
  glob: boolean;
  target: Target | undefined;
}

/** What the graph remembers of one source file; `mtimeMs` + `size` tell whether it must be read again. */
export interface FileRecord {
  mtimeMs: number;
  size: number;
  imports: ImportEdge[];
}

/** The persisted import graph of one project. */
export interface CachedGraph {
  /** mtime+size of the files that steer resolution (tsconfig, package.json); a change re-resolves everything. */
  fingerprint: string;
  files: Map<string, FileRecord>;
}

// Bump when the shape below or the meaning of an edge changes; an older file is then ignored.
const VERSION = 3;
const FILE_NAME = 'affected-graph.json';
// Targets are stored as indexes into `paths` (a path appears once, however many files import it).
const UNRESOLVED = -1;
const EXTERNAL = -2;
const GLOB = -3;

type StoredFile = [path: number, mtimeMs: number, size: number, specifiers: string[], targets: number[]];
interface Stored {
  version: number;
  cwd: string;
  fingerprint: string;
  paths: string[];
  files: StoredFile[];
}

/** The graph saved for `cwd` in `cacheDir`, or null when there is none (or it is unreadable or stale). */
export async function loadGraph(cacheDir: string, cwd: string): Promise<CachedGraph | null> {
  let stored: Stored;
  try {
    stored = JSON.parse(await readFile(join(cacheDir, FILE_NAME), 'utf8')) as Stored;
    if (stored.version !== VERSION || stored.cwd !== cwd) return null;
    const files = new Map<string, FileRecord>();
    const { paths } = stored;
    for (const [path, mtimeMs, size, specifiers, targets] of stored.files) {
      const imports = specifiers.map((specifier, k): ImportEdge => {
        const target = targets[k]!;
        if (target === GLOB) return { specifier, glob: true, target: null };
        return {
          specifier,
          glob: false,
          target: target === UNRESOLVED ? null : target === EXTERNAL ? '' : paths[target]!,
        };
      });
      files.set(paths[path]!, { mtimeMs, size, imports });
    }
    return { fingerprint: stored.fingerprint, files };
  } catch {
    return null;
  }
}

/** Saves the graph atomically (a reader never sees half a file). */
export async function saveGraph(cacheDir: string, cwd: string, graph: CachedGraph): Promise<void> {
  const paths: string[] = [];
  const indexes = new Map<string, number>();
  const indexOf = (path: string): number => {
    let index = indexes.get(path);
    if (index === undefined) {
      index = paths.push(path) - 1;
      indexes.set(path, index);
    }
    return index;
  };
  const files: StoredFile[] = [];
  for (const [path, record] of graph.files) {
    const targets = record.imports.map(({ glob, target }) =>
      glob ? GLOB : target === null || target === undefined ? UNRESOLVED : target === '' ? EXTERNAL : indexOf(target),
    );
    files.push([indexOf(path), record.mtimeMs, record.size, record.imports.map((edge) => edge.specifier), targets]);
  }
  const stored: Stored = { version: VERSION, cwd, fingerprint: graph.fingerprint, paths, files };
  await mkdir(cacheDir, { recursive: true });
  // Loaded on demand: a selection that changes nothing in the graph never writes.
  const { default: writeFileAtomic } = await import('write-file-atomic');
  await writeFileAtomic(join(cacheDir, FILE_NAME), JSON.stringify(stored), { fsync: false });
}
