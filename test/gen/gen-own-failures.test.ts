import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { git, makeRepo, readJson, removeRepos, ROOT, runCli } from '../helpers/repo.js';
import { ownFailurePredicate } from '../../src/engine/gen/own-failures.js';
import { activeDir } from '../../src/engine/session/paths.js';

afterAll(removeRepos);

// A project whose published suite already fails one test (toml's test_invalid_tests needs data its tarball does not
// ship): gen's kept tests all pass, so IMPL-002 has nothing of gen's to fix, reports the failure as the project's
// own and gen exits 0, without one agent call in the fix loop.
const AGENT = join(ROOT, 'test/fixtures/agents/gate-menu-agent.mjs');

const calcJs =
  'export function add(a, b) {\n  return a + b;\n}\n\nexport function clamp(value, low, high) {\n  if (value < low) return low;\n  if (value > high) return high;\n  return value;\n}\n';

describe('gen on a project whose suite fails before generation', () => {
  it("measures the suite first; IMPL-002 reports the failing test as the project's own and works only on what gen brought: exit 0", async () => {
    const repo = makeRepo(null, {
      '.gitignore': 'node_modules\n',
      'package.json': JSON.stringify({
        name: 'calclib',
        private: true,
        type: 'module',
        scripts: { test: 'node --test' },
      }),
      'src/slug.js': "export const slug = (s) => s.trim().toLowerCase().replace(/\\s+/g, '-');\n",
      'test/slug.test.js':
        "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { readFileSync } from 'node:fs';\nimport { slug } from '../src/slug.js';\n\ntest('slug joins words', () => {\n  assert.equal(slug(' A b '), 'a-b');\n});\n\ntest('slug matches the shared data', () => {\n  const data = JSON.parse(readFileSync(new URL('./data/slugs.json', import.meta.url), 'utf8'));\n  for (const [input, out] of data) assert.equal(slug(input), out);\n});\n",
    });
    git(repo, 'switch', '-q', '-c', 'feature');
    mkdirSync(join(repo, 'src'), { recursive: true });
    writeFileSync(join(repo, 'src/calc.js'), calcJs);
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'add calc');
    const agent = mkdtempSync(join(tmpdir(), 'fixcycle-own-agent-'));
    const run = await runCli(repo, ['gen', '--headless', '--agent-cmd', `${process.execPath} ${AGENT} ${agent}`], {
      timeoutMs: 420_000,
    });
    const out = run.stdout + run.stderr;
    expect(run.exitCode, out).toBe(0);
    const dir = join(activeDir(repo), readdirSync(activeDir(repo))[0]!);
    const pkg = readJson(join(dir, '.process/test-context-package.json'));
    expect(pkg.suite_before).toEqual({
      passed: 1,
      failed: 1,
      failing: ['slug matches the shared data'],
      passing: ['slug joins words'],
      errors: 0,
    });
    expect(out).toMatch(/\[context\] done: .*1 test\(s\) fail before generation \(the project's own\)/);
    // The loop's baseline counts the own failure apart: nothing gen brought fails, so no agent is asked to fix.
    const results = readJson(join(dir, '.process/test-results.json'));
    expect(results.own_failures.map((f: any) => f.id)).toEqual(['slug matches the shared data']);
    expect(results.failed).toBe(0);
    expect(results.pass_rate).toBe(100);
    expect(out).toMatch(
      /\[IMPL-002\] done: success: every test passes but the 1 that failed before the session \(the project's own\); 1 failure\(s\) are the project's own, failing before gen: slug matches the shared data/,
    );
    const calls = readFileSync(join(agent, 'calls.log'), 'utf8').split('\n').filter(Boolean);
    expect(calls.filter((c) => !/^(analyze test-analysis|generate )/.test(c))).toEqual([]);
    expect(readJson(join(dir, '.process/gen-state.json')).outcome).toMatch(/^success: .*project's own/);
  }, 480_000);

  it("a lint step of the test script that failed before gen is the project's own: reported by IMPL-002, never counted against gen (exit 0)", async () => {
    const repo = makeRepo(null, {
      '.gitignore': 'node_modules\n',
      'package.json': JSON.stringify({
        name: 'calclib',
        private: true,
        type: 'module',
        scripts: { lint: 'node lint.js', test: 'npm run lint && node --test' },
      }),
      // The project's linter finds an old problem of its own, before and after gen alike.
      'lint.js': "console.error('src/slug.js:1:1  error  Unexpected var  no-var');\nprocess.exit(1);\n",
      'src/slug.js': "export const slug = (s) => s.trim().toLowerCase().replace(/\\s+/g, '-');\n",
      'test/slug.test.js':
        "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { slug } from '../src/slug.js';\n\ntest('slug joins words', () => {\n  assert.equal(slug(' A b '), 'a-b');\n});\n",
    });
    git(repo, 'switch', '-q', '-c', 'feature');
    writeFileSync(join(repo, 'src/calc.js'), calcJs);
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'add calc');
    const agent = mkdtempSync(join(tmpdir(), 'fixcycle-own-agent-'));
    const plan = {
      target: 'src/calc.js:clamp',
      rounds: [
        {
          'test/calc.test.js':
            "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { add, clamp } from '../src/calc.js';\n\ntest('add', () => {\n  assert.equal(add(2, 3), 5);\n});\n\ntest('clamp', () => {\n  assert.equal(clamp(-1, 0, 9), 0);\n  assert.equal(clamp(10, 0, 9), 9);\n  assert.equal(clamp(5, 0, 9), 5);\n});\n",
        },
      ],
    };
    writeFileSync(join(agent, 'plan.json'), JSON.stringify(plan));
    const files = join(ROOT, 'test/fixtures/agents/files-agent.mjs');
    const run = await runCli(
      repo,
      ['gen', '--headless', '--agent-cmd', `${process.execPath} ${files} ${agent} ${join(agent, 'plan.json')}`],
      { timeoutMs: 420_000 },
    );
    const out = run.stdout + run.stderr;
    expect(out).toMatch(/\[context\] done: .*1 error\(s\) outside tests before generation/);
    expect(run.exitCode, out).toBe(0);
    const dir = join(activeDir(repo), readdirSync(activeDir(repo))[0]!);
    const results = readJson(join(dir, '.process/test-results.json'));
    expect(results.errors).toEqual([]);
    expect(results.own_errors.map((e: any) => e.message)).toEqual([expect.stringMatching(/^`npm run lint`/)]);
    expect(out).toMatch(/\[IMPL-002\] done: .*1 error\(s\) outside tests are the project's own, there before gen/);
  }, 480_000);

  it("a package that did not build before gen (pkg-errors: its helpers were in the removed file): its tests' failures after are the project's own, never a kept test's or one that passed before", () => {
    const own = ownFailurePredicate({ passed: 0, failed: 0, failing: [], passing: [], errors: 1 }, [
      { test: 'stack_test.go::TestFrameFormat/0', file: 'stack_test.go', note: 'fails all 5 runs' },
    ])!;
    expect(own('github.com/pkg/errors::TestFormatNew', 'TestFormatNew')).toBe(true);
    expect(own('github.com/pkg/errors::TestFrameFormat/0', 'TestFrameFormat/0')).toBe(false);
    const some = ownFailurePredicate(
      { passed: 1, failed: 1, failing: ['a.test.js::old'], passing: ['a.test.js::fine'], errors: 0 },
      [],
    )!;
    expect([some('a.test.js::old', 'old'), some('a.test.js::fine', 'fine')]).toEqual([true, false]);
    expect(ownFailurePredicate({ passed: 3, failed: 0, failing: [], passing: ['x'], errors: 0 }, [])).toBeNull();
  });
});
