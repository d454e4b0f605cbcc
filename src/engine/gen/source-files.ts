import { isGoTestFile, isJsTestFile, isPythonTestFile } from '../affected/test-file-patterns.js';

const SOURCE_EXT = /\.(m|c)?[jt]sx?$|\.py$|\.go$/;
const TEST_FOLDER = /(^|\/)(test|tests|__tests__|spec|e2e)\//;
const NOT_SOURCE =
  /(^|\/)(node_modules|dist|build|coverage|\.workflow|vendor)\/|(^|\/)[^/]*\.config\.[cm]?[jt]s$|\.d\.ts$/;

/** A test file, or support code that lives with the tests (helpers, fixtures): what generation may write. */
export function isTestSide(path: string): boolean {
  return (
    isJsTestFile(path) ||
    isPythonTestFile(path) ||
    isGoTestFile(path) ||
    TEST_FOLDER.test(path) ||
    /(^|\/)conftest\.py$/.test(path)
  );
}

/** A test file proper: one the runner collects tests from. */
export function isTestFileProper(path: string): boolean {
  return isJsTestFile(path) || isPythonTestFile(path) || isGoTestFile(path);
}

/** Source code a test can cover: a script that is not a test, not config, not build output. */
export function isSourceFile(path: string): boolean {
  return SOURCE_EXT.test(path) && !NOT_SOURCE.test(path) && !isTestSide(path);
}
