import { isGoTestFile, isJsTestFile, isPythonTestFile } from '../affected/test-file-patterns.js';

const CODE = /\.(m|c)?[jt]sx?$|\.py$|\.go$|\.rs$/;
const NOT_OURS =
  /(^|\/)(node_modules|site-packages|dist-packages|\.workflow|vendor|target|coverage|\.venv|venv|__pycache__)\/|\.d\.ts$|(^|\/)[^/]*\.config\.[cm]?[jt]s$/;
const TEST_SIDE =
  /(^|\/)(test|tests|__tests__|spec|testing|testdata)\/|(^|\/)conftest\.py$|(^|\/)tests?\.(rs|[cm]?[jt]sx?)$/;

/**
 * Code a suspect may point at: the project's own source, not its tests, dependencies or fixcycle's files.
 * Built files (`dist/`) count: where the tests load them, they are the code under test.
 */
export function isSuspectSource(path: string): boolean {
  if (!CODE.test(path) || NOT_OURS.test(path) || path.startsWith('..') || path.startsWith('/')) return false;
  return !(isJsTestFile(path) || isPythonTestFile(path) || isGoTestFile(path) || TEST_SIDE.test(path));
}
