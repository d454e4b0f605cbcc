import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseGitDiff } from '../../src/engine/guard/diff.js';
import { checkFix } from '../../src/engine/guard/index.js';
import { cleanup, tempDir } from '../agents/helpers.js';

/** A one-hunk git diff of `file` replacing `before` lines with `after` lines. */
function diffOf(file: string, before: string[], after: string[]): string {
  return [
    `diff --git a/${file} b/${file}`,
    'index 1111111..2222222 100644',
    `--- a/${file}`,
    `+++ b/${file}`,
    `@@ -1,${before.length} +1,${after.length} @@`,
    ...before.map((l) => `-${l}`),
    ...after.map((l) => `+${l}`),
    '',
  ].join('\n');
}

let repo: string;
beforeAll(() => {
  repo = tempDir('fixcycle-patterns-');
});
afterAll(() => cleanup(repo));

function check(file: string, before: string[], after: string[]) {
  return checkFix({
    repo,
    changedFiles: [file],
    diff: diffOf(file, before, after),
    plan: {
      root_causes: ['x'],
      modification_points: ['x'],
      affected_tests: [],
      confidence_score: 1,
      approach: 'x',
      tests_are_wrong: [file],
    },
    baselineTestFiles: [],
  });
}

describe('markers and weakened assertions across runners', () => {
  it.each([
    [
      'pytest skip decorator',
      'tests/test_math.py',
      ['def test_add():'],
      ['@pytest.mark.skip(reason="flaky")', 'def test_add():'],
      /@pytest.mark.skip/,
    ],
    [
      'pytest.skip() call',
      'tests/test_math.py',
      ['    assert add(2, 3) == 5'],
      ['    pytest.skip("later")', '    assert add(2, 3) == 5'],
      /pytest.skip\(\)/,
    ],
    [
      'python assert True',
      'tests/test_math.py',
      ['    assert add(2, 3) == 5'],
      ['    assert True'],
      /replaces an assertion with a constant/,
    ],
    [
      'unittest assertTrue(True)',
      'tests/test_math.py',
      ['        self.assertEqual(add(2, 3), 5)'],
      ['        self.assertTrue(True)'],
      /with a constant/,
    ],
    [
      'Go t.Skip()',
      'math_test.go',
      ['\tif got := Add(2, 3); got != 5 {'],
      ['\tt.Skip("flaky")', '\tif got := Add(2, 3); got != 5 {'],
      /t.Skip\(\)/,
    ],
    ['Rust #[ignore] in a source file', 'src/lib.rs', ['    #[test]'], ['    #[test]', '    #[ignore]'], /#\[ignore\]/],
    [
      'Rust assert!(true)',
      'tests/math.rs',
      ['    assert_eq!(add(2, 3), 5);'],
      ['    assert!(true);'],
      /with a constant/,
    ],
    ['jasmine xit', 'spec/math.spec.js', ["  it('adds', () => {"], ["  xit('adds', () => {"], /x-\/f-prefixed test/],
    [
      'describe.only',
      'src/math.test.ts',
      ["describe('math', () => {"],
      ["describe.only('math', () => {"],
      /\.skip\/\.only\/\.todo/,
    ],
    ['test.todo', 'src/math.test.ts', [], ["test.todo('adds negative numbers');"], /\.skip\/\.only\/\.todo/],
    [
      'node:test skip option',
      'test/math.test.js',
      ["test('adds', () => {"],
      ["test('adds', { skip: true }, () => {"],
      /\{ skip\/todo\/only \} test option/,
    ],
    [
      'mocha this.skip()',
      'test/math.test.js',
      ['    assert.equal(add(2, 3), 5);'],
      ['    this.skip();', '    assert.equal(add(2, 3), 5);'],
      /runtime skip/,
    ],
    [
      'jasmine pending()',
      'spec/math.spec.js',
      ["  it('adds', () => {"],
      ["  it('adds', () => {", "    pending('later');"],
      /skip\(\)\/pending\(\)/,
    ],
    [
      'expect(true).toBe(true)',
      'src/math.test.ts',
      ['  expect(add(2, 3)).toBe(5);'],
      ['  expect(true).toBe(true);'],
      /with a constant/,
    ],
    [
      'expect on a literal',
      'src/math.test.ts',
      ['  expect(add(2, 3)).toEqual(5);'],
      ['  expect(5).toEqual(5);'],
      /with a constant/,
    ],
    [
      'a removed expect',
      'src/math.test.ts',
      ['  expect(add(2, 3)).toBe(5);', '  expect(add(0, 0)).toBe(0);'],
      ['  expect(add(2, 3)).toBe(5);'],
      /removes 1 assertion/,
    ],
    [
      'vitest exclude',
      'vitest.config.ts',
      ['  test: {'],
      ['  test: {', "    exclude: ['src/math.test.ts'],"],
      /exclude or narrow tests/,
    ],
    [
      'pytest --ignore',
      'pyproject.toml',
      ['[tool.pytest.ini_options]'],
      ['[tool.pytest.ini_options]', 'addopts = "--ignore=tests/test_math.py"'],
      /exclude or narrow tests/,
    ],
  ])('rejects %s', (_name, file, before, after, reason) => {
    const verdict = check(file, before, after);
    expect(verdict.ok).toBe(false);
    expect(!verdict.ok && verdict.reasons.join('\n')).toMatch(reason);
  });

  it.each([
    [
      'code that merely says skip',
      'src/list.js',
      ['  return items;'],
      ['  const skip = items.slice(1);', '  return skip;'],
    ],
    [
      'a changed expected value in a test the plan calls wrong',
      'src/math.test.ts',
      ['  expect(add(2, 3)).toBe(6);'],
      ['  expect(add(2, 3)).toBe(5);'],
    ],
    ['a dependency bump in package.json', 'package.json', ['    "zod": "^4.0.0"'], ['    "zod": "^4.1.0"']],
    // A constant that fails wherever it is reached is a check: the path after a call that must throw.
    [
      'self.assertTrue(False) after a call that must raise',
      'tests/test_math.py',
      ['        parse("(")'],
      ['        parse("(")', '        self.assertTrue(False)'],
    ],
    [
      'expect(false).toBe(true) after a call that must throw',
      'src/math.test.ts',
      ["  parse('(');"],
      ["  parse('(');", '  expect(false).toBe(true);'],
    ],
  ])('accepts %s', (_name, file, before, after) => {
    expect(check(file, before, after).ok).toBe(true);
  });

  it('rejects a path outside the repository', () => {
    const verdict = checkFix({
      repo,
      changedFiles: ['../elsewhere/a.js'],
      diff: '',
      plan: null,
      baselineTestFiles: [],
    });
    expect(verdict).toEqual({
      ok: false,
      reasons: ['touches a file outside the repository: ../elsewhere/a.js is a path outside the repository'],
    });
  });
});

describe('parseGitDiff', () => {
  it('reads new, deleted, renamed and space-named files with their lines', () => {
    const diff = [
      'diff --git a/src/new file.js b/src/new file.js',
      'new file mode 100644',
      'index 0000000..e69de29',
      '--- /dev/null',
      '+++ b/src/new file.js\t',
      '@@ -0,0 +1 @@',
      '+export const x = 1;',
      'diff --git a/test/old.test.js b/test/old.test.js',
      'deleted file mode 100644',
      '--- a/test/old.test.js',
      '+++ /dev/null',
      '@@ -1 +0,0 @@',
      "-test('x', () => {});",
      'diff --git a/a.js b/b.js',
      'similarity index 100%',
      'rename from a.js',
      'rename to b.js',
      'diff --git a/link b/link',
      'new file mode 120000',
      '--- /dev/null',
      '+++ b/link',
      '@@ -0,0 +1 @@',
      '+/etc/passwd',
      '\\ No newline at end of file',
    ].join('\n');
    expect(parseGitDiff(diff)).toEqual([
      {
        oldPath: 'src/new file.js',
        newPath: 'src/new file.js',
        status: 'added',
        added: ['export const x = 1;'],
        removed: [],
        addedAt: [1],
        removedAt: [],
        newMode: '100644',
        binary: false,
      },
      // A removed line's place is the new line it stood before (line 0 of an emptied file).
      {
        oldPath: 'test/old.test.js',
        newPath: 'test/old.test.js',
        status: 'deleted',
        added: [],
        removed: ["test('x', () => {});"],
        addedAt: [],
        removedAt: [0],
        binary: false,
      },
      {
        oldPath: 'a.js',
        newPath: 'b.js',
        status: 'renamed',
        added: [],
        removed: [],
        addedAt: [],
        removedAt: [],
        binary: false,
      },
      {
        oldPath: 'link',
        newPath: 'link',
        status: 'added',
        added: ['/etc/passwd'],
        removed: [],
        addedAt: [1],
        removedAt: [],
        newMode: '120000',
        binary: false,
      },
    ]);
  });
});
