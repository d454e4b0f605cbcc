import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixWithChain } from '../../src/engine/agents/chain.js';
import { Repo } from '../../src/engine/git.js';
import { checkFix } from '../../src/engine/guard/index.js';
import type { FixPlan } from '../../src/engine/session/schema.js';
import { builtIn, cleanup, fakeEnv, MATH_TEST, makeRepo, tempDir } from '../agents/helpers.js';

type Edit = { path: string; content?: string; delete?: boolean; symlink?: string };

const PLAN: FixPlan = {
  root_causes: ['add subtracts'],
  modification_points: ['src/math.js:add:1-3'],
  affected_tests: ['test/math.test.js::adds two numbers'],
  confidence_score: 0.9,
  approach: 'add instead of subtracting',
};

const FIXED_SOURCE =
  'export function add(a, b) {\n  return a + b;\n}\n\nexport function mul(a, b) {\n  return a * b;\n}\n';
const SNAPSHOT = '// Jest Snapshot v1\n\nexports[`renders 1`] = `"<b>5</b>"`;\n';

let repo: string;
let logs: string;

beforeEach(() => {
  repo = makeRepo({
    'test/__snapshots__/render.test.js.snap': SNAPSHOT,
    'jest.config.js': 'export default {\n  testEnvironment: "node",\n};\n',
  });
  logs = tempDir('fixcycle-guard-');
});
afterEach(() => cleanup(repo, logs));

/** A fixer (the claude stand-in) makes these edits through the chain; the guard judges the real diff from Repo. */
async function fixAndCheck(edits: Edit[], plan: FixPlan | null = PLAN) {
  const env = fakeEnv(join(logs, 'calls.jsonl'), { FAKE_CLI_EDIT: JSON.stringify(edits) });
  const attempt = await fixWithChain(
    [builtIn('claude')],
    { prompt: 'Apply the plan.', cwd: repo, env, timeoutMs: 20_000 },
    async () => undefined,
  );
  expect(attempt.agent).toBe('claude');
  const git = await Repo.open(repo);
  const changedFiles = await git.changedFiles();
  const diff = await git.diff(changedFiles);
  const verdict = checkFix({ repo, changedFiles, diff, plan, baselineTestFiles: [join(repo, 'test/math.test.js')] });
  return { verdict, git, changedFiles };
}

const testFile = (): string => readFileSync(join(repo, 'test/math.test.js'), 'utf8');
const withTest = (from: string, to: string): Edit[] => [
  { path: 'test/math.test.js', content: MATH_TEST.replace(from, to) },
];

describe('the guard against fixing by cheating', () => {
  it('accepts an honest fix of the code under test', async () => {
    const { verdict } = await fixAndCheck([{ path: 'src/math.js', content: FIXED_SOURCE }]);
    expect(verdict).toEqual({ ok: true, testEdits: [] });
  });

  it('rejects a fixer that deletes the failing test, and the restore brings it back', async () => {
    const { verdict, git, changedFiles } = await fixAndCheck([{ path: 'test/math.test.js', delete: true }]);
    expect(verdict).toEqual({ ok: false, reasons: ['deletes test file test/math.test.js'] });
    await git.restoreFiles(changedFiles);
    expect(await git.changedFiles()).toEqual([]);
    expect(testFile()).toBe(MATH_TEST);
  });

  it('rejects a fixer that adds .skip to the failing test', async () => {
    const { verdict, git, changedFiles } = await fixAndCheck(
      withTest("test('adds two numbers'", "test.skip('adds two numbers'"),
    );
    expect(verdict.ok).toBe(false);
    expect(!verdict.ok && verdict.reasons).toEqual([
      "adds a .skip/.only/.todo marker in test/math.test.js: test.skip('adds two numbers', () => {",
    ]);
    await git.restoreFiles(changedFiles);
    expect(testFile()).toBe(MATH_TEST);
  });

  it('rejects a fixer that replaces an assertion with a constant', async () => {
    const { verdict } = await fixAndCheck(withTest('assert.equal(add(2, 3), 5);', 'assert.ok(true);'));
    expect(!verdict.ok && verdict.reasons).toEqual([
      'replaces an assertion with a constant in test/math.test.js: assert.ok(true);',
    ]);
  });

  it('rejects a fixer that removes the assertion', async () => {
    const { verdict } = await fixAndCheck(withTest('  assert.equal(add(2, 3), 5);\n', ''));
    expect(!verdict.ok && verdict.reasons).toEqual(['removes 1 assertion from test/math.test.js']);
  });

  it('rejects a fixer that removes the test case', async () => {
    const { verdict } = await fixAndCheck(
      withTest("test('adds two numbers', () => {\n  assert.equal(add(2, 3), 5);\n});\n\n", ''),
    );
    expect(!verdict.ok && verdict.reasons).toEqual([
      'removes 1 test case from test/math.test.js',
      'removes 1 assertion from test/math.test.js',
    ]);
  });

  it('rejects a fixer that renames the test file', async () => {
    const { verdict } = await fixAndCheck([
      { path: 'test/math.test.js', delete: true },
      { path: 'test/math.test.js.off', content: MATH_TEST },
    ]);
    expect(!verdict.ok && verdict.reasons).toContain('deletes test file test/math.test.js');
  });

  it('allows an edit of a test only when the plan says that test is wrong, and reports it', async () => {
    const edit = withTest('assert.equal(add(2, 3), 5);', 'assert.equal(add(2, 3), -1);');
    const refused = await fixAndCheck(edit);
    expect(!refused.verdict.ok && refused.verdict.reasons).toEqual([
      'edits test file test/math.test.js, but the plan names no test in it under tests_are_wrong',
    ]);
    await refused.git.restoreFiles(refused.changedFiles);

    const allowed = await fixAndCheck(edit, { ...PLAN, tests_are_wrong: ['test/math.test.js::adds two numbers'] });
    expect(allowed.verdict).toEqual({ ok: true, testEdits: ['test/math.test.js'] });
  });

  it('still rejects cheating in a test the plan says is wrong', async () => {
    const { verdict } = await fixAndCheck(withTest("test('adds two numbers'", "test.only('adds two numbers'"), {
      ...PLAN,
      tests_are_wrong: ['adds two numbers'],
    });
    expect(verdict.ok).toBe(false);
  });

  it('accepts a new test file and shows it', async () => {
    const { verdict } = await fixAndCheck([
      { path: 'src/math.js', content: FIXED_SOURCE },
      { path: 'test/add-edge.test.js', content: "import { test } from 'node:test';\ntest('adds zero', () => {});\n" },
    ]);
    expect(verdict).toEqual({ ok: true, testEdits: ['test/add-edge.test.js'] });
  });

  it('rejects an edited snapshot', async () => {
    const { verdict } = await fixAndCheck([
      { path: 'test/__snapshots__/render.test.js.snap', content: SNAPSHOT.replace('5', '-1') },
    ]);
    expect(!verdict.ok && verdict.reasons).toEqual([
      'edits snapshot test/__snapshots__/render.test.js.snap (what the tests expect; start the session with --update-snapshots to update snapshots)',
    ]);
  });

  it('rejects test configuration that excludes the failing test', async () => {
    const { verdict } = await fixAndCheck([
      {
        path: 'jest.config.js',
        content: 'export default {\n  testEnvironment: "node",\n  testPathIgnorePatterns: ["math"],\n};\n',
      },
    ]);
    expect(!verdict.ok && verdict.reasons).toEqual([
      'changes test configuration in jest.config.js to exclude or narrow tests: testPathIgnorePatterns: ["math"],',
    ]);
  });

  it('rejects a narrowed test script in package.json', async () => {
    const { verdict } = await fixAndCheck([
      {
        path: 'package.json',
        content: '{ "name": "demo", "type": "module", "scripts": { "test": "node --test test/other.test.js" } }\n',
      },
    ]);
    expect(!verdict.ok && verdict.reasons).toEqual(['changes the test script in package.json']);
  });

  it('rejects a symbolic link that leads out of the repository', async () => {
    const { verdict } = await fixAndCheck([
      { path: 'src/math.js', content: FIXED_SOURCE },
      { path: 'src/shared.js', symlink: logs },
    ]);
    expect(!verdict.ok && verdict.reasons.join('\n')).toMatch(
      /touches a file outside the repository: src\/shared.js is a symbolic link to .*fixcycle-guard-/,
    );
  });
});
