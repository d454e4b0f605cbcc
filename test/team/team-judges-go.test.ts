import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveRunner } from '../../src/engine/runners/index.js';
import { judgeTests } from '../../src/engine/team/judge-tests.js';
import { dropUntilClean } from '../../src/engine/team/l0-drops.js';
import { goVetFindings } from '../../src/engine/gen/l0/go-checks.js';
import type { TeamContext } from '../../src/engine/team/team-context.js';
import { makeRepo, removeRepos } from '../helpers/repo.js';
import { judgeContext } from './team-helpers.js';

afterAll(removeRepos);

const goReady = spawnSync('go', ['version'], { stdio: 'ignore' }).status === 0;

// A go test that panics ends its package's test binary: the tests after it are never reported in that run. The
// judges must not keep them unjudged (nor call them flaky): the placeholder goes first, the files run again.
describe("team's judges on go (skipped without go on PATH)", () => {
  it.skipIf(!goReady)(
    'a panicking placeholder goes, then the assertion-free test run after it goes too (no mutant killed, no changed line added); the good test stays',
    async () => {
      const repo = makeRepo(null, {
        'go.mod': 'module example.com/c\n\ngo 1.19\n',
        'c.go':
          'package c\n\nfunc Clamp(n, lo, hi int) int {\n\tif n < lo {\n\t\treturn lo\n\t}\n\tif n > hi {\n\t\treturn hi\n\t}\n\treturn n\n}\n',
      });
      const files: Record<string, string> = {
        'a_errors_test.go':
          'package c\n\nimport "testing"\n\nfunc TestRejects(t *testing.T) {\n\t// TODO\n\tpanic("not implemented")\n}\n',
        'b_clamp_test.go':
          'package c\n\nimport "testing"\n\nfunc TestClamp(t *testing.T) {\n\tif Clamp(-1, 0, 9) != 0 || Clamp(12, 0, 9) != 9 || Clamp(4, 0, 9) != 4 {\n\t\tt.Fatal("clamp")\n\t}\n}\n',
        'c_smoke_test.go':
          'package c\n\nimport "testing"\n\nfunc TestRuns(t *testing.T) {\n\tt.Log(Clamp(4, 0, 9))\n}\n',
      };
      for (const [f, text] of Object.entries(files)) writeFileSync(join(repo, f), text);
      const said: string[] = [];
      const { ctx, task } = await judgeContext(repo, { file: 'c.go', lines: [3, 4, 5, 6, 7, 8, 9, 10, 11] }, said);
      const written = new Set(Object.keys(files));
      const dropped = await judgeTests(ctx, task, repo, written, join(repo, '.journal.json'));
      expect(dropped).toEqual([
        'a_errors_test.go: "TestRejects" (placeholder: fails all 5 runs)',
        expect.stringMatching(/^c_smoke_test\.go: "TestRuns" \(checks nothing: it killed none of the \d+ mutants/),
      ]);
      expect([...written]).toEqual(['b_clamp_test.go']);
      expect(existsSync(join(repo, 'a_errors_test.go'))).toBe(false);
      expect(existsSync(join(repo, 'c_smoke_test.go'))).toBe(false);
      expect(readFileSync(join(repo, 'b_clamp_test.go'), 'utf8')).toBe(files['b_clamp_test.go']);
      expect(readFileSync(join(repo, 'c.go'), 'utf8')).toMatch(/if n < lo/);
      expect(said.some((s) => /quality: mutant 1 of/.test(s))).toBe(true);
    },
    300_000,
  );
});

// pkg-errors under team: go builds a package's test files as one, so a missing module in one new file hides the
// undeclared name of a second and the unused import of a third. Each goes for the error go names at its own line.
describe("team's last L0 round on go (skipped without go on PATH)", () => {
  it.skipIf(!goReady)(
    'a build error in one new file does not hide the others: checked again until clean, each file dropped with its own error, the good file kept',
    async () => {
      const repo = makeRepo(null, {
        'go.mod': 'module example.com/c\n\ngo 1.19\n',
        'c.go': 'package c\n\nfunc Clamp(n, lo, hi int) int {\n\tif n < lo {\n\t\treturn lo\n\t}\n\treturn n\n}\n',
      });
      const files: Record<string, string> = {
        'c_property_test.go':
          'package c\n\nimport (\n\t"testing"\n\n\t"github.com/stretchr/testify/assert"\n)\n\nfunc TestProperty(t *testing.T) {\n\tassert.Equal(t, 0, Clamp(-1, 0, 9))\n}\n',
        'c_api_test.go':
          'package c\n\nimport "testing"\n\nfunc TestClampf(t *testing.T) {\n\tif Clampf(1) != 1 {\n\t\tt.Fatal("clampf")\n\t}\n}\n',
        'c_cases_test.go':
          'package c\n\nimport (\n\t"fmt"\n\t"testing"\n)\n\nfunc TestCases(t *testing.T) {\n\tif Clamp(-1, 0, 9) != 0 {\n\t\tt.Fatal("clamp")\n\t}\n}\n',
        'c_test.go':
          'package c\n\nimport "testing"\n\nfunc TestClamp(t *testing.T) {\n\tif Clamp(-1, 0, 9) != 0 || Clamp(4, 0, 9) != 4 {\n\t\tt.Fatal("clamp")\n\t}\n}\n',
      };
      for (const [f, text] of Object.entries(files)) writeFileSync(join(repo, f), text);
      const ctx = {
        runner: await resolveRunner(repo, {}),
        signal: new AbortController().signal,
        options: { testTimeoutMs: 120_000 },
      } as unknown as TeamContext;
      const written = new Set(Object.keys(files));
      // go's settings come from the environment, as the project's test command would set them (no module lookup).
      const saved = { GOFLAGS: process.env.GOFLAGS, GOPROXY: process.env.GOPROXY };
      Object.assign(process.env, { GOFLAGS: '-mod=mod', GOPROXY: 'off' });
      let dropped: string[];
      try {
        // What the generator's last round saw: go vet stopped at the module it cannot find.
        const first = await goVetFindings(repo, [...written], 120_000);
        expect(first.findings.map((f) => f.file)).toEqual(['c_property_test.go']);
        dropped = await dropUntilClean(ctx, repo, first.findings, written, ['c.go']);
      } finally {
        for (const [k, v] of Object.entries(saved))
          if (v === undefined) delete process.env[k];
          else process.env[k] = v;
      }
      expect(dropped).toEqual([
        expect.stringMatching(/^c_property_test\.go \(\w+: .*testify\/assert/),
        expect.stringMatching(/^c_api_test\.go \(export: (undefined|undeclared name): Clampf \(line 6\)\)$/),
        expect.stringMatching(/^c_cases_test\.go \(typecheck: .*"fmt".*not used.*\(line 4\)\)$/),
      ]);
      expect([...written]).toEqual(['c_test.go']);
      expect(existsSync(join(repo, 'c_api_test.go'))).toBe(false);
    },
    300_000,
  );
});
