import { describe, expect, it } from 'vitest';
import { isJsTestFile } from '../../src/engine/affected/test-file-patterns.js';
import { isTestSide } from '../../src/engine/gen/source-files.js';

describe('JS test files by convention', () => {
  it('counts a file named test.js as a test file, at the root as in quick-lru (ava), or in a folder', () => {
    for (const path of ['test.js', 'test.mjs', 'src/test.ts', 'index.test.js', 'test/api.ts'])
      expect(isJsTestFile(path), path).toBe(true);
    expect(isTestSide('test.js')).toBe(true);
  });

  it('does not count a module whose name only starts with test, nor fixtures', () => {
    for (const path of ['testing.js', 'lib/test-utils.js', 'contest.js', 'test/fixtures/test.js', 'index.js'])
      expect(isJsTestFile(path), path).toBe(false);
  });
});
