import { existsSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { findGoImports, readModulePath } from './go-imports.js';
import { listProjectFiles } from './list-files.js';
import { findDependents } from './reverse-reach.js';
import { count, nameFiles, type AffectedSelection } from './selection.js';
import { isGoTestFile } from './test-file-patterns.js';

/** The go half of `selectAffectedTests`, paths already relative to `cwd`. */
export interface GoSelectionInput {
  cwd: string;
  changedFiles: string[];
  testFiles?: string[];
  /** Failed test files, package folders or package import paths (as `go test -json` names them). */
  lastFailedFiles: string[];
}

/**
 * The packages to test: each changed file's package and every package of this module that imports
 * it, directly or through others (they are compiled against it), keeping those that have tests.
 * Answers package folders (`./pkg/util`, `.` for the root) for `go test`.
 */
export async function selectGoTests(input: GoSelectionInput): Promise<AffectedSelection> {
  const { cwd, changedFiles } = input;
  const goModPath = join(cwd, 'go.mod');
  const modulePath = existsSync(goModPath) ? readModulePath(readFileSync(goModPath, 'utf8')) : null;
  if (!modulePath) return { files: 'all', reason: `no module path in ${goModPath}; running every package.` };

  const files = await listProjectFiles(cwd);
  const nestedModules = files.filter((f) => f.endsWith('/go.mod')).map((f) => posix.dirname(f) + '/');
  const goFiles = files.filter((f) => f.endsWith('.go') && !nestedModules.some((m) => f.startsWith(m)) && isBuilt(f));
  const packages = new Set(goFiles.map(packageOf));
  const dependencies = new Map<string, string[]>();
  const tested = new Set<string>();
  for (const file of goFiles) {
    const pkg = packageOf(file);
    if (isGoTestFile(file)) tested.add(pkg);
    const path = join(cwd, file);
    const imports = existsSync(path) ? findGoImports(readFileSync(path, 'utf8')) : [];
    const local = imports.flatMap((imp) => {
      const dir = imp === modulePath ? '' : imp.startsWith(`${modulePath}/`) ? imp.slice(modulePath.length + 1) : null;
      return dir !== null && dir !== pkg ? [dir] : [];
    });
    dependencies.set(pkg, [...(dependencies.get(pkg) ?? []), ...local]);
  }
  if (input.testFiles) {
    tested.clear();
    for (const file of input.testFiles) tested.add(packageOf(file));
  }

  const starts: string[] = [];
  // testdata is read by its own package's tests only; other files may be embedded into the package.
  const testdataOf: string[] = [];
  for (const file of changedFiles) {
    const pkg = owningPackage(file, packages);
    if (pkg === null) {
      return { files: 'all', reason: `${file} belongs to no Go package of ${modulePath}; running every package.` };
    }
    if (file.split('/').includes('testdata')) testdataOf.push(pkg);
    else starts.push(pkg);
  }
  const reached = [...new Set([...findDependents(dependencies, starts), ...testdataOf])].filter((pkg) =>
    tested.has(pkg),
  );
  const lastFailed = input.lastFailedFiles.map((f) => failedPackage(f, modulePath)).filter((pkg) => packages.has(pkg));
  const selected = [...new Set([...reached, ...lastFailed])].sort().map((pkg) => (pkg === '' ? '.' : `./${pkg}`));
  const extra = lastFailed.filter((pkg) => !reached.includes(pkg)).length;
  const failedNote = extra > 0 ? `; ${count(extra, 'package')} failed last time` : '';
  return {
    files: selected,
    reason: `${count(reached.length, 'tested package')} build on ${nameFiles(changedFiles)}${failedNote} (${count(packages.size, 'package')} in ${modulePath}).`,
  };
}

/** The go tool ignores `testdata`, `vendor` and folders starting with `_` or `.`. */
function isBuilt(file: string): boolean {
  return !file
    .split('/')
    .slice(0, -1)
    .some((d) => d === 'testdata' || d === 'vendor' || d.startsWith('_') || d.startsWith('.'));
}

function packageOf(file: string): string {
  const dir = posix.dirname(file);
  return dir === '.' ? '' : dir;
}

/** A `.go` file's package; any other file belongs to the nearest package folder above it (testdata, embeds). */
function owningPackage(file: string, packages: Set<string>): string | null {
  if (file.endsWith('.go')) return packageOf(file);
  let dir = packageOf(file);
  for (;;) {
    if (packages.has(dir)) return dir;
    if (dir === '') return null;
    dir = packageOf(dir);
  }
}

function failedPackage(entry: string, modulePath: string): string {
  if (entry === modulePath) return '';
  if (entry.startsWith(`${modulePath}/`)) return entry.slice(modulePath.length + 1);
  if (entry.endsWith('.go')) return packageOf(entry);
  const dir = entry.replace(/^\.\/?/, '').replace(/\/$/, '');
  return dir;
}
