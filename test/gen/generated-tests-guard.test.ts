import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Repo } from '../../src/engine/git.js';
import { checkFix } from '../../src/engine/guard/index.js';
import { planAllowingGenerated } from '../../src/engine/gen/generated-tests-guard.js';
import { makeRepo, removeRepos } from '../helpers/repo.js';

afterAll(removeRepos);

const oldTest =
  "import { test } from 'node:test';\nimport assert from 'node:assert';\ntest('old', () => {\n  assert.equal(1 + 1, 2);\n});\n";
const genTest =
  "import { test } from 'node:test';\nimport assert from 'node:assert';\nimport { f } from '../src/f.js';\ntest('gen', () => {\n  assert.equal(f(2), 5);\n});\n";

async function verdict(repo: string, edits: Record<string, string>) {
  for (const [file, text] of Object.entries(edits)) writeFileSync(join(repo, file), text);
  const r = await Repo.open(repo);
  const changedFiles = await r.changedFiles();
  const v = checkFix({
    repo,
    changedFiles,
    diff: await r.diff(changedFiles),
    plan: planAllowingGenerated(null, ['test/gen.test.js']),
    baselineTestFiles: ['test/old.test.js', 'test/gen.test.js'],
  });
  await r.restoreFiles(changedFiles);
  return v;
}

describe('the IMPL-002 guard', () => {
  it('lets the fix agent correct a generated test, but not cheat on it, and protects the tests that existed before', async () => {
    const repo = makeRepo(null, {
      'src/f.js': 'export const f = (n) => n * 2;\n',
      'test/old.test.js': oldTest,
      'test/gen.test.js': genTest,
    });
    expect(await verdict(repo, { 'test/gen.test.js': genTest.replace('f(2), 5', 'f(2), 4') })).toEqual({
      ok: true,
      testEdits: ['test/gen.test.js'],
    });
    expect(await verdict(repo, { 'test/gen.test.js': genTest.replace("test('gen'", "test.skip('gen'") })).toMatchObject(
      { ok: false, reasons: [expect.stringMatching(/\.skip/)] },
    );
    expect(
      await verdict(repo, { 'test/gen.test.js': genTest.replace('  assert.equal(f(2), 5);\n', '') }),
    ).toMatchObject({ ok: false, reasons: [expect.stringMatching(/removes 1 assertion/)] });
    expect(await verdict(repo, { 'test/old.test.js': oldTest.replace('1 + 1, 2', '1 + 1, 3') })).toMatchObject({
      ok: false,
      reasons: [expect.stringMatching(/edits test file test\/old\.test\.js/)],
    });
  });
});
