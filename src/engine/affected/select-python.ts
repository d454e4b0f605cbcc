import { existsSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { listProjectFiles } from './list-files.js';
import { findPythonImports, type PythonImport } from './py-imports.js';
import { findDependents } from './reverse-reach.js';
import { count, existingFiles, nameFiles, unite, type AffectedSelection } from './selection.js';
import { isPythonTestFile } from './test-file-patterns.js';

/** The pytest half of `selectAffectedTests`, paths already relative to `cwd`. */
export interface PythonSelectionInput {
  cwd: string;
  changedFiles: string[];
  testFiles?: string[];
  lastFailedFiles: string[];
}

/**
 * The test modules that import a changed module, directly or through other modules. Modules resolve
 * against the rootdir (and `src/` for a src layout), relative imports against their package, and
 * plain names in a folder without `__init__.py` against that folder, as pytest's default import
 * mode puts it on `sys.path`.
 */
export async function selectPythonTests(input: PythonSelectionInput): Promise<AffectedSelection> {
  const { cwd, changedFiles } = input;
  const modules = new Set((await listProjectFiles(cwd)).filter((p) => p.endsWith('.py')));
  // A deleted module stays a node, so the files that imported it still lead to their tests.
  for (const file of changedFiles) if (file.endsWith('.py')) modules.add(file);

  const dependencies = new Map<string, string[]>();
  for (const file of modules) {
    const path = join(cwd, file);
    const source = existsSync(path) ? readFileSync(path, 'utf8') : '';
    const targets = findPythonImports(source).flatMap((imp) => resolvePythonImport(file, imp, modules));
    dependencies.set(
      file,
      targets.filter((target) => target !== file),
    );
  }

  const suite = input.testFiles ? new Set(input.testFiles) : null;
  const isTest = (file: string): boolean => (suite ? suite.has(file) : isPythonTestFile(file));
  const starts: string[] = [];
  const changedTests: string[] = [];
  for (const file of changedFiles) {
    if (!file.endsWith('.py')) {
      return {
        files: 'all',
        reason: `${file} is not a Python module, so no import tells which tests use it; running every test.`,
      };
    }
    starts.push(file);
    if (isTest(file) && existsSync(join(cwd, file))) changedTests.push(file);
  }
  const reachedTests = [...findDependents(dependencies, starts)].filter((f) => isTest(f) && !changedTests.includes(f));
  const lastFailed = existingFiles(cwd, input.lastFailedFiles);
  const parts = [`${count(reachedTests.length, 'test module')} import ${nameFiles(changedFiles)}`];
  if (changedTests.length > 0) parts.push(count(changedTests.length, 'changed test module'));
  if (lastFailed.length > 0) parts.push(`${count(lastFailed.length, 'test file')} failed last time`);
  return {
    files: existingFiles(cwd, unite(reachedTests, changedTests, lastFailed)),
    reason: `${parts.join('; ')} (${count(modules.size, 'Python module')} scanned).`,
  };
}

/** The project files one import loads: the module itself, its parent packages' `__init__.py`, and imported submodules. */
export function resolvePythonImport(fromFile: string, imp: PythonImport, modules: Set<string>): string[] {
  const dir = posix.dirname(fromFile) === '.' ? '' : posix.dirname(fromFile);
  const segments = imp.module === '' ? [] : imp.module.split('.');
  const base = imp.level > 0 ? packageAbove(dir, imp.level - 1) : findAbsoluteBase(dir, segments, modules);
  if (base === null) return [];
  const found = chain(base, segments, modules);
  for (const name of imp.names) {
    const submodule = lookup(joinPath(base, [...segments, name]), modules);
    if (submodule) found.push(submodule);
  }
  return found;
}

/** Where an absolute import is found: the importer's folder when it is not a package, else the rootdir or `src/`. */
function findAbsoluteBase(dir: string, segments: string[], modules: Set<string>): string | null {
  const candidates = [dir, '', 'src'];
  for (const base of candidates) {
    if (base === dir && dir !== '' && modules.has(`${dir}/__init__.py`)) continue;
    if (lookup(joinPath(base, segments), modules)) return base;
  }
  return null;
}

/** `pkg/__init__.py`, `pkg/sub/__init__.py`, `pkg/sub/mod.py` for `pkg.sub.mod`, those that exist. */
function chain(base: string, segments: string[], modules: Set<string>): string[] {
  const found: string[] = [];
  if (segments.length === 0) {
    const init = lookup(base, modules);
    if (init) found.push(init);
  }
  for (let k = 1; k <= segments.length; k++) {
    const file = lookup(joinPath(base, segments.slice(0, k)), modules);
    if (file) found.push(file);
  }
  return found;
}

function lookup(path: string, modules: Set<string>): string | undefined {
  const asFile = `${path}.py`;
  if (path !== '' && modules.has(asFile)) return asFile;
  const asPackage = path === '' ? '__init__.py' : `${path}/__init__.py`;
  return modules.has(asPackage) ? asPackage : undefined;
}

function joinPath(base: string, segments: string[]): string {
  return [base, ...segments].filter((s) => s !== '').join('/');
}

/** The folder `levels` above `dir` (`from ..x` is one above), or null past the rootdir. */
function packageAbove(dir: string, levels: number): string | null {
  let current = dir;
  for (let up = 0; up < levels; up++) {
    if (current === '') return null;
    const at = current.lastIndexOf('/');
    current = at < 0 ? '' : current.slice(0, at);
  }
  return current;
}
