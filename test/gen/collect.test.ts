import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { collectFile, runFile } from '../../src/engine/gen/collect.js';
import { resolveRunner } from '../../src/engine/runners/index.js';
import { makeRepo, removeRepos } from '../helpers/repo.js';

afterAll(removeRepos);

// What a file holds is the runner's to say: titles made at run time are collected as the runner names them, and a
// file holding only imports, or one that does not load, collects nothing.
describe('collectFile asks the runner which tests a file holds', () => {
  it('node:test: a title made by a call and a loop of cases are collected; imports alone and a file that throws on load collect none', async () => {
    const repo = makeRepo(null, {
      'package.json': JSON.stringify({ name: 'c', private: true, scripts: { test: 'node --test' } }),
      'test/made.test.js':
        "const { test } = require('node:test');\nconst assert = require('node:assert');\nconst title = (n) => `doubles ${n}`;\n\ntest(title(2), () => assert.equal(2 * 2, 4));\nfor (const n of [3, 4]) test(`case ${n}`, () => assert.ok(n));\n",
      'test/empty.test.js': "const { test } = require('node:test');\nconst assert = require('node:assert');\n",
      'test/boot.test.js':
        "const { test } = require('node:test');\nthrow new Error('needs a database');\ntest('never', () => {});\n",
    });
    const ask = { runner: await resolveRunner(repo, {}), root: repo, timeoutMs: 60_000 };
    const made = await collectFile(ask, 'test/made.test.js');
    expect(made.unknown).toBeUndefined();
    expect(made.tests.map((t) => t.name).sort()).toEqual(['case 3', 'case 4', 'doubles 2']);
    expect((await collectFile(ask, 'test/empty.test.js')).tests).toEqual([]);
    expect((await collectFile(ask, 'test/boot.test.js')).tests).toEqual([]);
  }, 120_000);

  const goReady = spawnSync('go', ['version'], { stdio: 'ignore' }).status === 0;
  it.skipIf(!goReady)(
    'go (skipped without go on PATH): the tests of one file by `go test -list`, with and without it, the package built with it alone',
    async () => {
      const repo = makeRepo(null, {
        'go.mod': 'module example.com/c\n\ngo 1.19\n',
        'c.go': 'package c\n\nfunc Double(n int) int { return 2 * n }\n',
        'old_test.go':
          'package c\n\nimport "testing"\n\nfunc TestOld(t *testing.T) {\n\tif Double(1) != 2 {\n\t\tt.Error("no")\n\t}\n}\n',
        'new_test.go':
          'package c\n\nimport "testing"\n\nfunc TestNew(t *testing.T) {\n\tfor _, n := range []int{1, 2} {\n\t\tt.Run("case", func(t *testing.T) {\n\t\t\tif Double(n) != 2*n {\n\t\t\t\tt.Error("no")\n\t\t\t}\n\t\t})\n\t}\n}\n',
        'helpers_test.go': 'package c\n\nfunc helper() int { return 1 }\n',
        'other_test.go': 'package c\n\nimport "testing"\n\nfunc TestOther(t *testing.T) {}\n',
      });
      const ask = { runner: await resolveRunner(repo, {}), root: repo, timeoutMs: 120_000 };
      const files = ['new_test.go', 'helpers_test.go', 'other_test.go'];
      expect((await collectFile(ask, 'new_test.go', files)).tests.map((t) => t.name)).toEqual(['TestNew']);
      expect((await collectFile(ask, 'helpers_test.go', files)).tests).toEqual([]);
    },
    240_000,
  );

  it.skipIf(!goReady)(
    "go (skipped without go on PATH): the user's `-vet=off` carries into gen's `go test -list` and its runs of one file, where go vet refuses an existing test file",
    async () => {
      const repo = makeRepo(null, {
        'go.mod': 'module example.com/v\n\ngo 1.19\n',
        'v.go': 'package v\n\nfunc Double(n int) int { return 2 * n }\n',
        // go test's vet step refuses this (a Println ending in a newline); `go test -vet=off` runs it and passes.
        'old_test.go':
          'package v\n\nimport (\n\t"fmt"\n\t"testing"\n)\n\nfunc TestOld(t *testing.T) {\n\tfmt.Println("done\\n")\n}\n',
        'new_test.go':
          'package v\n\nimport "testing"\n\nfunc TestNew(t *testing.T) {\n\tif Double(2) != 4 {\n\t\tt.Error("no")\n\t}\n}\n',
      });
      const ask = {
        runner: await resolveRunner(repo, { testCmd: 'go test -vet=off ./...' }),
        root: repo,
        timeoutMs: 120_000,
      };
      const collected = await collectFile(ask, 'new_test.go', ['new_test.go']);
      expect(collected.unknown).toBeUndefined();
      expect(collected.tests.map((t) => t.name)).toEqual(['TestNew']);
      const ran = await runFile(ask, 'new_test.go', ['new_test.go']);
      expect(ran?.run.result.tests.map((t) => `${t.name} ${t.status}`).sort()).toEqual([
        'TestNew passed',
        'TestOld passed',
      ]);
      // The same package under plain `go test` does not build: the flag is what makes it run.
      const plain = { ...ask, runner: await resolveRunner(repo, { testCmd: 'go test ./...' }) };
      expect((await collectFile(plain, 'new_test.go', ['new_test.go'])).unknown).toMatch(/redundant newline|vet/);
    },
    240_000,
  );
});
