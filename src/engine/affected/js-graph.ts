import { readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, posix, sep } from 'node:path';
import { loadGraph, saveGraph, type CachedGraph, type FileRecord, type ImportEdge } from './graph-cache.js';
import { findModuleReferences, initModuleLexer } from './js-references.js';
import type { ResolveSpecifier } from './js-resolve.js';
import { listProjectFiles } from './list-files.js';
import { isScriptFile } from './script-files.js';

/** The runtime import graph of a JS/TS project, paths relative to its root. */
export interface ImportGraph {
  /** Every project file (sources and the rest), from git or a folder walk. */
  projectFiles: string[];
  /** Each JS/TS source file and the project files it loads at run time. */
  dependencies: Map<string, string[]>;
  /** Files gone since the cached graph, with the files that imported them then. */
  formerImporters: Map<string, string[]>;
  /** How the graph came about: files read and specifiers resolved this time, and the cache's part. */
  stats: { files: number; read: number; resolved: number; cache: 'cold' | 'warm' | 'off'; saveError?: string };
}

const RESOLUTION_INPUTS = /^(tsconfig.*|jsconfig.*|package)\.json$/;
const REREADS_BEFORE_SAVE = 50;

/**
 * Builds the graph, reusing the cache in `cacheDir` (null: no cache): a file whose mtime and size
 * match its cached record and that is not among `changedFiles` is not read again, and a specifier
 * is resolved again only when the files it could lead to changed.
 */
export async function buildImportGraph(
  cwd: string,
  cacheDir: string | null,
  changedFiles: string[],
): Promise<ImportGraph> {
  const [projectFiles, cached] = await Promise.all([
    listProjectFiles(cwd),
    cacheDir ? loadGraph(cacheDir, cwd) : Promise.resolve(null),
    initModuleLexer(),
  ]);
  const changed = new Set(changedFiles);
  const files = new Map<string, FileRecord>();
  let read = 0;
  let importsChanged = 0;
  // Listed paths are already normalized: plain concatenation spares path.join on every file.
  const root = cwd.endsWith(sep) ? cwd : cwd + sep;
  for (const path of projectFiles) {
    if (!isScriptFile(path)) continue;
    const stat = statSync(root + path, { throwIfNoEntry: false });
    if (!stat?.isFile()) continue;
    const old = cached?.files.get(path);
    if (old && !changed.has(path) && old.mtimeMs === stat.mtimeMs && old.size === stat.size) {
      files.set(path, old);
      continue;
    }
    const references = findModuleReferences(readFileSync(root + path, 'utf8'));
    const imports = references.map((ref): ImportEdge => ({
      specifier: ref.specifier,
      glob: ref.glob,
      target: undefined,
    }));
    // Most edits leave the imports as they were: keep where they led.
    if (old && sameImports(old.imports, imports)) imports.forEach((edge, k) => (edge.target = old.imports[k]!.target));
    else importsChanged++;
    files.set(path, { mtimeMs: stat.mtimeMs, size: stat.size, imports });
    read++;
  }

  const fingerprint = fingerprintOf(cwd, projectFiles);
  const present = new Set(projectFiles.filter((p) => !isScriptFile(p) || files.has(p)));
  const formerImporters =
    cached && cached.fingerprint === fingerprint ? forgetStaleTargets(files, cached, present) : forgetAllTargets(files);
  const resolved = await resolveMissing(cwd, files);

  const graph: CachedGraph = { fingerprint, files };
  const stats: ImportGraph['stats'] = {
    files: files.size,
    read,
    resolved,
    cache: cacheDir ? (cached ? 'warm' : 'cold') : 'off',
  };
  const fileSetChanged = cached
    ? files.size !== cached.files.size || [...cached.files.keys()].some((p) => !files.has(p))
    : false;
  // A few files re-read with their imports unchanged are cheaper to read again next time than to rewrite the cache.
  if (cacheDir && (!cached || importsChanged > 0 || resolved > 0 || fileSetChanged || read > REREADS_BEFORE_SAVE)) {
    await saveGraph(cacheDir, cwd, graph).catch((error: unknown) => {
      stats.saveError = error instanceof Error ? error.message : String(error);
    });
  }
  return { projectFiles, dependencies: dependenciesOf(files, projectFiles), formerImporters, stats };
}

function fingerprintOf(cwd: string, projectFiles: string[]): string {
  const parts: string[] = [];
  for (const path of projectFiles) {
    if (!RESOLUTION_INPUTS.test(basename(path))) continue;
    const stat = statSync(join(cwd, path), { throwIfNoEntry: false });
    parts.push(`${path}:${stat?.mtimeMs ?? 0}:${stat?.size ?? 0}`);
  }
  return parts.sort().join('|');
}

function forgetAllTargets(files: Map<string, FileRecord>): Map<string, string[]> {
  for (const record of files.values()) for (const edge of record.imports) edge.target = undefined;
  return new Map();
}

/**
 * Marks for resolving again the edges whose answer may have changed: unresolved ones when files
 * were added, ones that led to a removed file, and ones a new file may shadow (`a.ts` added beside
 * `a/index.ts`). Returns the importers of each removed file.
 */
function forgetStaleTargets(
  files: Map<string, FileRecord>,
  cached: CachedGraph,
  present: Set<string>,
): Map<string, string[]> {
  const added = [...files.keys()].filter((p) => !cached.files.has(p));
  const addedKeys = new Set(added.flatMap(shadowKeys));
  const formerImporters = new Map<string, string[]>();
  for (const [path, record] of files) {
    for (const edge of record.imports) {
      const target = edge.target;
      if (target === undefined || target === '') continue;
      if (target === null) {
        if (added.length > 0) edge.target = undefined;
        continue;
      }
      if (!present.has(target)) {
        formerImporters.set(target, [...(formerImporters.get(target) ?? []), path]);
        edge.target = undefined;
      } else if (addedKeys.size > 0 && shadowKeys(target).some((key) => addedKeys.has(key))) {
        edge.target = undefined;
      }
    }
  }
  return formerImporters;
}

/** The extension-less names a file answers to: `a/b.ts` -> `a/b`; `a/index.ts` -> `a/index`, `a`. */
function shadowKeys(path: string): string[] {
  const stem = path.replace(/\.[^./]+$/, '');
  return basename(stem) === 'index' ? [stem, dirname(stem)] : [stem];
}

function sameImports(a: ImportEdge[], b: ImportEdge[]): boolean {
  return a.length === b.length && a.every((edge, k) => edge.specifier === b[k]!.specifier && edge.glob === b[k]!.glob);
}

async function resolveMissing(cwd: string, files: Map<string, FileRecord>): Promise<number> {
  let resolved = 0;
  let resolve: ResolveSpecifier | null = null;
  for (const [path, record] of files) {
    for (const edge of record.imports) {
      if (edge.target !== undefined) continue;
      // Loaded on demand: a warm selection usually resolves nothing.
      resolve ??= (await import('./js-resolve.js')).createResolver(cwd);
      edge.target = edge.glob ? null : resolve(path, edge.specifier);
      resolved++;
    }
  }
  return resolved;
}

function dependenciesOf(files: Map<string, FileRecord>, projectFiles: string[]): Map<string, string[]> {
  const dependencies = new Map<string, string[]>();
  for (const [path, record] of files) {
    const targets: string[] = [];
    for (const edge of record.imports) {
      if (edge.glob) targets.push(...expandGlob(path, edge.specifier, projectFiles));
      else if (edge.target) targets.push(edge.target);
    }
    dependencies.set(path, targets);
  }
  return dependencies;
}

/** The project files a relative template import (`./locales/*.js`) can load; any script extension counts for `.js`. */
function expandGlob(fromFile: string, pattern: string, projectFiles: string[]): string[] {
  if (!pattern.startsWith('./') && !pattern.startsWith('../')) return [];
  const full = posix.normalize(posix.join(posix.dirname(fromFile), pattern));
  const escaped = full.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*');
  const withScripts = escaped.replace(/\\\.[cm]?[jt]sx?$/, '\\.[cm]?[jt]sx?');
  const matcher = new RegExp(`^${withScripts}$`);
  return projectFiles.filter((p) => p !== fromFile && matcher.test(p));
}
