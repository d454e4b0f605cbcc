import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execaSync } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { absentSubmodules, type AbsentSubmodule } from '../../src/engine/runners/absent-submodules.js';
import { markAbsentSubmoduleData, readsAbsentSubmodule } from '../../src/engine/runners/absent-submodule-data.js';
import { needsWhatIsNotHere, testsThatCannotRunHere } from '../../src/engine/runners/tests-that-cannot-run.js';
import type { NormalizedResult } from '../../src/engine/types.js';
import { makeRepo, removeRepos } from '../helpers/repo.js';

afterAll(removeRepos);

const ROOT = '/home/u/parse5';
// parse5's two submodules: html5lib-tests-fork begins with html5lib-tests, so a prefix alone must not match.
const TESTS: AbsentSubmodule = {
  path: 'test/data/html5lib-tests',
  url: 'https://github.com/html5lib/html5lib-tests.git',
  recorded: false,
};
const FORK: AbsentSubmodule = { path: 'test/data/html5lib-tests-fork', recorded: true };

// As jest printed parse5's suite that could not load (Debian's +dfsg source leaves the submodules out).
const SCANDIR = `ENOENT: no such file or directory, scandir '${ROOT}/test/data/html5lib-tests/tokenizer'

      166 | function loadTests(dataDirPath: string): LoadedTest[] {
    > 167 |     const testSetFileNames = fs.readdirSync(dataDirPath);

      at loadTests (test/utils/generate-tokenization-tests.ts:167:33)`;

describe('a failure that reads a submodule not checked out', () => {
  it('is the missing file under the submodule, as node, Python, Go and Java name it, absolute or relative to the root', () => {
    expect(readsAbsentSubmodule(SCANDIR, ROOT, [TESTS, FORK])).toBe(TESTS);
    expect(
      readsAbsentSubmodule(
        `Error: ENOENT: no such file or directory, open 'test/data/html5lib-tests-fork/tree-construction/a.dat'`,
        ROOT,
        [TESTS, FORK],
      ),
    ).toBe(FORK);
    expect(
      readsAbsentSubmodule(
        `FileNotFoundError: [Errno 2] No such file or directory: '${ROOT}/test/data/html5lib-tests/a.test'`,
        ROOT,
        [TESTS],
      ),
    ).toBe(TESTS);
    expect(
      readsAbsentSubmodule('open test/data/html5lib-tests/tokenizer: no such file or directory', ROOT, [TESTS]),
    ).toBe(TESTS);
    // go test runs in its package's folder: a relative path is read from there too.
    expect(
      readsAbsentSubmodule(
        'open testdata/golden/a.txt: no such file or directory',
        ROOT,
        [{ path: 'pkg/parse/testdata', recorded: true }],
        [`${ROOT}/pkg/parse`],
      ),
    ).toMatchObject({ path: 'pkg/parse/testdata' });
    expect(
      readsAbsentSubmodule('open testdata/golden/a.txt: no such file or directory', ROOT, [
        { path: 'pkg/parse/testdata', recorded: true },
      ]),
    ).toBeUndefined();
    expect(
      readsAbsentSubmodule(
        'java.io.FileNotFoundException: test/data/html5lib-tests/x.dat (No such file or directory)',
        ROOT,
        [TESTS],
      ),
    ).toBe(TESTS);
  });

  it('is not a missing file anywhere else: a fixture the code renamed is the agent to fix, and so is a wrong value naming the folder', () => {
    expect(
      readsAbsentSubmodule(`Error: ENOENT: no such file or directory, open '${ROOT}/test/fixtures/page.html'`, ROOT, [
        TESTS,
        FORK,
      ]),
    ).toBeUndefined();
    // Only the fork is absent: a path under html5lib-tests is not under html5lib-tests-fork.
    expect(readsAbsentSubmodule(SCANDIR, ROOT, [FORK])).toBeUndefined();
    expect(
      readsAbsentSubmodule("expected 'test/data/html5lib-tests/tokenizer' to equal 'x'", ROOT, [TESTS]),
    ).toBeUndefined();
    expect(readsAbsentSubmodule(SCANDIR, ROOT, [])).toBeUndefined();
    // The submodule of another checkout is not this one's.
    expect(readsAbsentSubmodule(SCANDIR, '/elsewhere', [TESTS])).toBeUndefined();
  });

  it("marks the errors and failed tests that read it; a run failing only so stops, naming the submodule, how to get it, and the runner's words", () => {
    const run: NormalizedResult = {
      format: 'jest-json',
      tests: [{ id: 'a.test.ts::parses', name: 'parses', status: 'passed' }],
      errors: [
        { message: SCANDIR, file: 'packages/parse5/lib/tokenizer/index.test.ts' },
        {
          message: SCANDIR.replace('html5lib-tests/tokenizer', 'html5lib-tests-fork/tree-construction'),
          file: 'packages/parse5/lib/parser/index.test.ts',
        },
      ],
      truncated: false,
    };
    const marked = markAbsentSubmoduleData(run, ROOT, [TESTS, FORK]);
    expect(marked.errors.every((error) => needsWhatIsNotHere(error))).toBe(true);
    const stop = testsThatCannotRunHere(marked);
    expect(stop).toMatchObject({ cause: 'cannot run here', testsRan: true });
    const [head, ...words] = stop!.message.split('\n');
    expect(head).toBe(
      '2 test files cannot run on this machine (`packages/parse5/lib/tokenizer/index.test.ts`, `packages/parse5/lib/parser/index.test.ts`): they fail only because the git submodule `test/data/html5lib-tests` (listed in .gitmodules, not checked out) and the git submodule `test/data/html5lib-tests-fork` (listed in .gitmodules, not checked out) are not here, which no change to the code can fix, so no agent is asked: the tree records no commit for it (a source archive), so clone it there (`git clone https://github.com/html5lib/html5lib-tests.git test/data/html5lib-tests`); check it out with `git submodule update --init test/data/html5lib-tests-fork`, or leave them out of the command (--test-cmd "<a command without them>")',
    );
    expect(words.join('\n')).toContain(
      `packages/parse5/lib/tokenizer/index.test.ts:\n  ENOENT: no such file or directory, scandir '${ROOT}/test/data/html5lib-tests/tokenizer'`,
    );
    // Unmarked, the same run is errors for the agent.
    expect(testsThatCannotRunHere(run)).toBeNull();
    expect(needsWhatIsNotHere(run.errors[0]!)).toBe(false);
  });

  it('is no stop when anything else fails too: a test, or an error that reads no submodule', () => {
    const errors = [{ message: SCANDIR, file: 'a.test.ts' }];
    const wrong = { id: 'b.test.ts::adds', name: 'adds', status: 'failed' as const, message: 'expected 5, got -1' };
    expect(
      testsThatCannotRunHere(
        markAbsentSubmoduleData({ format: 'jest-json', tests: [wrong], errors, truncated: false }, ROOT, [TESTS]),
      ),
    ).toBeNull();
    const renamed = {
      message: `ENOENT: no such file or directory, open '${ROOT}/test/fixtures/page.html'`,
      file: 'c.test.ts',
    };
    expect(
      testsThatCannotRunHere(
        markAbsentSubmoduleData(
          { format: 'jest-json', tests: [], errors: [...errors, renamed], truncated: false },
          ROOT,
          [TESTS],
        ),
      ),
    ).toBeNull();
    // A failed test reading the submodule is marked as the errors are.
    const reads = { id: 'd.test.ts::tokenizes', name: 'tokenizes', status: 'failed' as const, message: SCANDIR };
    expect(
      markAbsentSubmoduleData({ format: 'jest-json', tests: [reads], errors: [], truncated: false }, ROOT, [TESTS])
        .tests[0]!.notHere?.what,
    ).toMatch(/^the git submodule `test\/data\/html5lib-tests`/);
    // A go test's relative path, read from the folder of its file.
    const golden = {
      id: 'pkg/parse::TestGolden',
      name: 'TestGolden',
      file: 'pkg/parse/parse_test.go',
      status: 'failed' as const,
      message: 'open testdata/golden/a.txt: no such file or directory',
    };
    expect(
      markAbsentSubmoduleData({ format: 'go-test-json', tests: [golden], errors: [], truncated: false }, ROOT, [
        { path: 'pkg/parse/testdata', recorded: true },
      ]).tests[0]!.notHere?.remedy,
    ).toBe('check it out with `git submodule update --init pkg/parse/testdata`');
  });
});

describe('the submodules not checked out, read from a real repository', () => {
  it('lists a submodule whose folder is empty or missing, never one with files, and knows which the tree pins', () => {
    const repo = makeRepo(null, {
      '.gitmodules':
        '[submodule "data"]\n\tpath = test/data/upstream\n\turl = https://example.invalid/upstream.git\n[submodule "archive"]\n\tpath = test/data/archive\n\turl = https://example.invalid/archive.git\n[submodule "vendored"]\n\tpath = vendor/lib\n\turl = https://example.invalid/lib.git\n',
      'vendor/lib/index.js': 'module.exports = 1;\n',
    });
    const git = (...args: string[]) => execaSync('git', args, { cwd: repo });
    // A clone without --recursive: the commit is pinned (a gitlink), the folder empty.
    git('update-index', '--add', '--cacheinfo', `160000,${'a'.repeat(40)},test/data/upstream`);
    git('commit', '-qm', 'pin upstream');
    mkdirSync(join(repo, 'test/data/upstream'), { recursive: true });
    return absentSubmodules(repo).then((absent) => {
      expect(absent).toEqual([
        { path: 'test/data/upstream', url: 'https://example.invalid/upstream.git', recorded: true },
        { path: 'test/data/archive', url: 'https://example.invalid/archive.git', recorded: false },
      ]);
    });
  });

  it('is empty without a .gitmodules, or with one git cannot read', async () => {
    expect(await absentSubmodules(makeRepo(null, { 'a.txt': 'a\n' }))).toEqual([]);
    const broken = makeRepo(null, { 'a.txt': 'a\n' });
    writeFileSync(join(broken, '.gitmodules'), '[submodule "x"\n\tpath = x\n');
    expect(await absentSubmodules(broken)).toEqual([]);
  });
});
