import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Repo } from '../../src/engine/git.js';
import { checkFix } from '../../src/engine/guard/index.js';
import type { FixPlan } from '../../src/engine/session/schema.js';
import { makeRepo, removeRepos } from '../helpers/repo.js';

afterAll(removeRepos);

const PLAN: FixPlan = {
  root_causes: ['add subtracts'],
  modification_points: ['src/lib.rs:add:1'],
  affected_tests: ['tests::adds'],
  confidence_score: 0.9,
  approach: 'add',
};
const LIB =
  'pub fn add(a: i32, b: i32) -> i32 {\n    a - b\n}\n\n#[cfg(test)]\nmod tests {\n    use super::*;\n\n    #[test]\n    fn adds() {\n        assert_eq!(add(2, 3), 5);\n    }\n}\n';

/** The guard's verdict on the working tree's change to one file of a real repository. */
async function verdict(files: Record<string, string>, file: string, content: string, baselineTestFiles: string[]) {
  const repo = makeRepo(null, files);
  writeFileSync(join(repo, file), content);
  const git = await Repo.open(repo);
  const changedFiles = await git.changedFiles();
  return checkFix({ repo, changedFiles, diff: await git.diff(changedFiles), plan: PLAN, baselineTestFiles });
}

describe('a source file that holds tests is not a test file', () => {
  it('accepts the fix to the code of a Rust module whose #[cfg(test)] tests the runner reported', async () => {
    expect(await verdict({ 'src/lib.rs': LIB }, 'src/lib.rs', LIB.replace('a - b', 'a + b'), ['src/lib.rs'])).toEqual({
      ok: true,
      testEdits: [],
    });
  });

  it('still rejects dropping the assertion of its inline test', async () => {
    const result = await verdict(
      { 'src/lib.rs': LIB },
      'src/lib.rs',
      LIB.replace('        assert_eq!(add(2, 3), 5);\n', ''),
      ['src/lib.rs'],
    );
    expect(result).toEqual({ ok: false, reasons: ['removes 1 assertion from src/lib.rs'] });
  });

  it('keeps a file of nothing but tests a test file, whatever its name', async () => {
    const test =
      "const test = require('tape');\nconst { add } = require('./index.js');\ntest('adds', (t) => { t.equal(add(2, 3), 5); t.end(); });\n";
    const result = await verdict(
      { 'test.js': test, 'index.js': 'exports.add = (a, b) => a - b;\n' },
      'test.js',
      test.replace('5)', '-1)'),
      ['test.js'],
    );
    expect(result.ok).toBe(false);
    expect(JSON.stringify(result)).toMatch(/edits test file test\.js/);
  });
});
