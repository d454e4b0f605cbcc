import { holdsOnlyTests } from './mixed-files.js';

/** Names that mark a test file in the common runners' conventions. */
const TEST_FILE: readonly RegExp[] = [
  /(^|\/)(test|tests|__tests__|spec|specs|e2e)\//,
  /\.(test|spec|e2e)\.[cm]?[jt]sx?$/,
  /(^|\/)test_[^/]*\.py$/,
  /_test\.(py|go|exs?|rb|dart)$/,
  /_spec\.rb$/,
  /(^|\/)conftest\.py$/,
  /Tests?\.(java|kt|cs|swift|php)$/,
  /\.t$/,
];

/** Snapshot files: editing them rewrites what the tests expect. */
const SNAPSHOT = [/(^|\/)__snapshots__\//, /\.snap$/, /\.snap\.new$/, /(^|\/)__snapshot__\//, /\.ambr$/];

/** Files that configure which tests run. */
const TEST_CONFIG: readonly RegExp[] = [
  /(^|\/)(jest|vitest|vite|mocha|karma|playwright|cypress|ava|tap|jasmine)\.config\.[cm]?[jt]s(on)?$/,
  /(^|\/)\.mocharc(\.[a-z]+)?$/,
  /(^|\/)\.taprc$/,
  /(^|\/)(pytest\.ini|tox\.ini|setup\.cfg|pyproject\.toml|conftest\.py|noxfile\.py)$/,
  /(^|\/)package\.json$/,
  /(^|\/)Cargo\.toml$/,
  /(^|\/)(phpunit\.xml(\.dist)?|\.rspec)$/,
  /(^|\/)jasmine\.json$/,
];

export function normalizePath(path: string): string {
  return path.replace(/\\/g, '/').replace(/^\.\//, '');
}

/**
 * Is this a test file: a runner's naming convention, or a file whose tests are in the session's baseline and
 * that holds nothing but tests (a source file with doctests or inline unit tests is not one: fixing its code
 * is the fix). `content` is the file's text, or null when unknown (then the baseline decides).
 */
export function isTestFile(path: string, baselineFiles: ReadonlySet<string>, content: string | null = null): boolean {
  const p = normalizePath(path);
  if (TEST_FILE.some((re) => re.test(p))) return true;
  return baselineFiles.has(p) && (content === null || holdsOnlyTests(content));
}

export function isSnapshot(path: string): boolean {
  const p = normalizePath(path);
  return SNAPSHOT.some((re) => re.test(p));
}

export function isTestConfig(path: string): boolean {
  const p = normalizePath(path);
  return TEST_CONFIG.some((re) => re.test(p));
}
