import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { judgeTests } from '../../src/engine/team/judge-tests.js';
import { makeRepo, removeRepos } from '../helpers/repo.js';
import { judgeContext } from './team-helpers.js';

afterAll(removeRepos);

// css-select under team: a placeholder test whose unused import the project's compiler refuses never runs, so the
// runner's refusal is its reason; what kind of test stood there is L0's to say, read before the runs take the file
// out of the tree (gen says both; team said only the runner's words).
describe("team's judges: a file that does not collect", () => {
  it("is dropped with the runner's words and L0's findings in the file", async () => {
    const repo = makeRepo(null, {
      'package.json': JSON.stringify({ name: 'c', type: 'module', scripts: { test: 'node --test' } }),
      'src/clamp.js': 'export function clamp(n, lo, hi) {\n  return Math.min(Math.max(n, lo), hi);\n}\n',
      'test/.keep': '',
    });
    const files: Record<string, string> = {
      'test/clamp.test.js':
        "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { clamp } from '../src/clamp.js';\n\ntest('clamps', () => {\n  assert.equal(clamp(12, 0, 9), 9);\n  assert.equal(clamp(-1, 0, 9), 0);\n});\n",
      'test/clamp-errors.test.js':
        "import { test } from 'node:test';\nimport { clampAll } from '../src/clamp.js';\n\ntest('rejects invalid input', () => {\n  throw new Error('not implemented');\n});\n",
    };
    for (const [f, text] of Object.entries(files)) writeFileSync(join(repo, f), text);
    const said: string[] = [];
    const { ctx, task } = await judgeContext(repo, { file: 'src/clamp.js', lines: [1, 2, 3] }, said);
    const written = new Set(Object.keys(files));
    const dropped = await judgeTests(ctx, task, repo, written, join(repo, '.journal.json'));
    expect(dropped).toEqual([
      expect.stringMatching(
        /^test\/clamp-errors\.test\.js \(does not collect: .*clampAll.*; L0 on the file: .*throws "not implemented" in test "rejects invalid input"/,
      ),
    ]);
    expect([...written]).toEqual(['test/clamp.test.js']);
  }, 180_000);
});
