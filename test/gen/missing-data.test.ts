import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { missingImportedName, missingTestData } from '../../src/engine/gen/missing-data.js';
import { resolveRunner } from '../../src/engine/runners/index.js';
import { makeRepo, removeRepos } from '../helpers/repo.js';

afterAll(removeRepos);

// A new test failing every run because it reads data of its own that is not in the repository (toml's
// test_invalid_tests lists toml-test/tests/invalid/, which its tarball does not ship) is rejected by IMPL-001.5:
// no fix of the code makes it pass. The messages here are the real runners' own.
const failures = async (repo: string, testCmd?: string): Promise<Map<string, { file?: string; message?: string }>> => {
  const runner = await resolveRunner(repo, testCmd ? { testCmd } : {});
  const run = await runner.run({ cwd: repo, scope: 'full', timeoutMs: 120_000 });
  return new Map(run.result.tests.filter((t) => t.status === 'failed').map((t) => [t.name, t]));
};

describe('a test reading data that is not here', () => {
  it('node:test: ENOENT on a folder the test names is missing data; ENOENT on a file only the code names is not', async () => {
    const repo = makeRepo(null, {
      'package.json': JSON.stringify({ name: 'cfg', private: true, type: 'module', scripts: { test: 'node --test' } }),
      'src/config.js':
        "import { readFileSync } from 'node:fs';\nexport const load = () => JSON.parse(readFileSync('settings.json', 'utf8'));\n",
      'test/config.test.js':
        "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { readdirSync } from 'node:fs';\nimport { load } from '../src/config.js';\n\ntest('reads every case', () => {\n  for (const f of readdirSync(new URL('./cases/', import.meta.url))) assert.ok(f);\n});\n\ntest('loads the settings', () => {\n  assert.deepEqual(load(), {});\n});\n",
    });
    const failed = await failures(repo);
    expect([...failed.keys()].sort()).toEqual(['loads the settings', 'reads every case']);
    expect(missingTestData(repo, 'test/config.test.js', failed.get('reads every case')!.message)).toMatch(
      /test\/cases\/?$/,
    );
    expect(missingTestData(repo, 'test/config.test.js', failed.get('loads the settings')!.message)).toBeNull();
  });

  const pytest = spawnSync('/usr/bin/python3', ['-c', 'import pytest'], { stdio: 'ignore' }).status === 0;
  it.skipIf(!pytest)(
    "pytest (skipped without Debian's python3-pytest at /usr/bin/python3): FileNotFoundError on toml-test's folder",
    async () => {
      const repo = makeRepo(null, {
        'tests/test_api.py':
          'import os\n\n\ndef test_invalid_tests():\n    invalid_dir = "toml-test/tests/invalid/"\n    for f in os.listdir(invalid_dir):\n        assert f\n',
      });
      const failed = await failures(repo, '/usr/bin/python3 -m pytest');
      const message = failed.get('test_invalid_tests')?.message;
      expect(message).toMatch(/FileNotFoundError/);
      expect(missingTestData(repo, 'tests/test_api.py', message)).toBe('toml-test/tests/invalid/');
    },
  );

  it("node:test, CommonJS: a name the test imports and calls that the module does not export is a hallucinated API; the code's own 'not a function' is not", async () => {
    const repo = makeRepo(null, {
      'package.json': JSON.stringify({ name: 'm', private: true, scripts: { test: 'node --test' } }),
      'src/m.js': 'exports.apply = (fn) => fn(1);\nexports.twice = (n) => n * 2;\n',
      'test/m.test.js':
        "const { test } = require('node:test');\nconst assert = require('node:assert');\nconst { twice, thrice, apply } = require('../src/m.js');\n\ntest('thrice', () => {\n  assert.strictEqual(thrice(2), 6);\n});\n\ntest('apply with no function', () => {\n  assert.strictEqual(apply(twice(1)), 2);\n});\n",
    });
    const failed = await failures(repo);
    expect(failed.get('thrice')?.message).toMatch(/thrice is not a function/);
    expect(missingImportedName(repo, 'test/m.test.js', failed.get('thrice')!.message)).toBe('thrice');
    expect(failed.get('apply with no function')?.message).toMatch(/fn is not a function/);
    expect(missingImportedName(repo, 'test/m.test.js', failed.get('apply with no function')!.message)).toBeNull();
    // vitest's module runner words it through its import binding (zod-coerce's run in the generation corpus).
    expect(
      missingImportedName(repo, 'test/m.test.js', 'TypeError: (0 , __vite_ssr_import_2__.thrice) is not a function'),
    ).toBe('thrice');
  });
});
