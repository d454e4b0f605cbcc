import { isScriptFile } from './script-files.js';

const TEST_NAME = /\.(test|spec)\.[cm]?[jt]sx?$/;
// A file named just `test.js` is the suite of many small packages (ava's default files include it, quick-lru's).
const TEST_ALONE = /^test\.[cm]?[jt]sx?$/;
const TEST_FOLDERS = new Set(['test', 'tests', '__tests__']);
// Inside a test folder these hold support code or whole fixture projects, not the suite's tests.
const SUPPORT_FOLDERS = new Set([
  'fixtures',
  '__fixtures__',
  'fixture',
  'helpers',
  'helper',
  '__mocks__',
  'mocks',
  'support',
  'utils',
  'setup',
]);

/**
 * True for a JS/TS test file by the common conventions: `*.test.*` / `*.spec.*` / `test.*` anywhere, and any
 * script under `test/`, `tests/` or `__tests__/` except support code (fixtures, helpers, mocks,
 * `_`-prefixed files). Files inside fixture folders never count: they belong to fixture projects.
 */
export function isJsTestFile(path: string): boolean {
  if (!isScriptFile(path)) return false;
  const parts = path.split('/');
  const name = parts[parts.length - 1]!;
  const folders = parts.slice(0, -1);
  if (folders.some((f) => f === 'fixtures' || f === '__fixtures__' || f === 'fixture')) return false;
  if (TEST_NAME.test(name) || TEST_ALONE.test(name)) return true;
  const testFolder = folders.findIndex((f) => TEST_FOLDERS.has(f));
  if (testFolder < 0 || name.startsWith('_')) return false;
  return !folders.slice(testFolder + 1).some((f) => SUPPORT_FOLDERS.has(f));
}

/** True for a pytest test module: `test_*.py` or `*_test.py`. */
export function isPythonTestFile(path: string): boolean {
  const name = path.slice(path.lastIndexOf('/') + 1);
  return name.endsWith('.py') && (name.startsWith('test_') || name.endsWith('_test.py'));
}

/** True for a Go test file (`*_test.go`). */
export function isGoTestFile(path: string): boolean {
  return path.endsWith('_test.go');
}
