import { mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { git, readJson, removeRepos, ROOT, runCli } from '../helpers/repo.js';
import { genProject, genSession } from '../helpers/gen-run.js';

afterAll(removeRepos);

const AGENT = join(ROOT, 'test/fixtures/agents/gen-tool-agent.mjs');
const signJs = [
  'export function sign(n) {',
  '  if (n < 0) {',
  "    return 'negative';",
  '  }',
  "  return 'positive';",
  '}',
  '',
].join('\n');
const signPy = 'def sign(n):\n    if n < 0:\n        return "negative"\n    return "positive"\n';

/** A project on main and a feature branch adding `added` (an untested module), its dependencies linked by `link`. */
function project(base: Record<string, string>, added: Record<string, string>, link?: (repo: string) => void): string {
  const repo = genProject(base, added);
  link?.(repo);
  return repo;
}

const gen = (repo: string, agent: string) =>
  runCli(repo, ['gen', '--headless', '--agent-cmd', `${process.execPath} ${AGENT} ${agent}`], { timeoutMs: 240_000 });

const vitestBase = {
  'package.json': JSON.stringify({ name: 'signlib', private: true, type: 'module', scripts: { test: 'vitest run' } }),
  'src/slug.js': "export const slug = (s) => s.trim().toLowerCase().replace(/\\s+/g, '-');\n",
  'test/slug.test.js':
    "import { expect, test } from 'vitest';\nimport { slug } from '../src/slug.js';\n\ntest('slug joins words', () => {\n  expect(slug(' A b ')).toBe('a-b');\n});\n",
};

function withoutCoverageProvider(repo: string): void {
  const nm = join(repo, 'node_modules');
  mkdirSync(join(nm, '@vitest'), { recursive: true });
  for (const name of readdirSync(join(ROOT, 'node_modules')))
    if (name !== '@vitest') symlinkSync(join(ROOT, 'node_modules', name), join(nm, name));
  for (const name of readdirSync(join(ROOT, 'node_modules/@vitest')))
    if (!name.startsWith('coverage-')) symlinkSync(join(ROOT, 'node_modules/@vitest', name), join(nm, '@vitest', name));
}

describe("fixcycle gen measures coverage with the project's own tool", () => {
  it('vitest with @vitest/coverage-v8: coverage before 0%, after 100% lines and branches, the test kept and committed', async () => {
    const repo = project(vitestBase, { 'src/sign.js': signJs }, (r) =>
      symlinkSync(join(ROOT, 'node_modules'), join(r, 'node_modules')),
    );
    const agent = mkdtempSync(join(tmpdir(), 'fixcycle-gen-tool-agent-'));
    const run = await gen(repo, agent);
    const out = run.stdout + run.stderr;
    expect(run.exitCode, out).toBe(0);
    const pkg = readJson(join(genSession(repo), '.process/test-context-package.json'));
    expect(pkg.coverage).toMatchObject({
      measured: true,
      how: expect.stringMatching(/vitest's own --coverage \(@vitest\/coverage-v8/),
    });
    expect(pkg.coverage.files[0]).toMatchObject({ file: 'src/sign.js', lines: 0 });
    expect(out).toMatch(/\[coverage\] src\/sign\.js: lines 0% → 100% \(target 80%\)/);
    const state = readJson(join(genSession(repo), '.process/gen-state.json'));
    expect(state.kept.map((k: { test: string }) => k.test).sort()).toEqual([
      'test/sign.test.js::sign of a negative number',
      'test/sign.test.js::sign of a positive number',
    ]);
    expect(git(repo, 'log', '-1', '--format=%s')).toMatch(/^test-gen: IMPL-001 - 2 generated test\(s\) kept/);
    const quality = readJson(join(genSession(repo), '.process/quality-gate.json'));
    expect(quality.coverage[0]).toMatchObject({ file: 'src/sign.js', linesAfter: 100, branchesAfter: 100 });
  }, 300_000);

  it('vitest without a coverage provider: the gate says "install @vitest/coverage-v8" on screen and in IMPL-001.5, and the rest still runs', async () => {
    const repo = project(vitestBase, { 'src/sign.js': signJs }, withoutCoverageProvider);
    const agent = mkdtempSync(join(tmpdir(), 'fixcycle-gen-tool-agent-'));
    const run = await gen(repo, agent);
    const out = run.stdout + run.stderr;
    expect(run.exitCode, out).toBe(0);
    expect(out).toMatch(/\[context\] done: .*install @vitest\/coverage-v8/);
    expect(out).toMatch(/\[coverage\] not measured: .*install @vitest\/coverage-v8/);
    const task = readJson(join(genSession(repo), '.task/IMPL-001.5-review.json'));
    expect(task.context.coverage).toMatch(/coverage not measured: .*install @vitest\/coverage-v8/);
    const state = readJson(join(genSession(repo), '.process/gen-state.json'));
    expect(state.kept.map((k: { note: string }) => k.note)).toEqual(['passes 5 of 5 runs', 'passes 5 of 5 runs']);
    expect(git(repo, 'log', '-1', '--format=%s')).toMatch(/^test-gen: IMPL-001 - 2 generated test\(s\) kept/);
  }, 300_000);

  const PY =
    ([{}, { PYENV_VERSION: 'system' }] as Record<string, string>[]).find(
      (env) =>
        spawnSync('python3', ['-c', 'import pytest, coverage'], { stdio: 'ignore', env: { ...process.env, ...env } })
          .status === 0,
    ) ?? null;
  it.skipIf(!PY)(
    'pytest with coverage.py: lines and branches of the changed module before and after',
    async () => {
      const env = Object.entries(PY!)
        .map(([k, v]) => `${k}=${v} `)
        .join('');
      const repo = project(
        {
          'slug.py': 'def slug(s):\n    return "-".join(s.lower().split())\n',
          'tests/test_slug.py': 'from slug import slug\n\n\ndef test_slug():\n    assert slug(" A b ") == "a-b"\n',
          'conftest.py': '',
          'fixcycle.config.json': JSON.stringify({ testCommand: `${env}python3 -m pytest` }),
        },
        { 'sign.py': signPy },
      );
      const agent = mkdtempSync(join(tmpdir(), 'fixcycle-gen-tool-agent-'));
      const run = await gen(repo, agent);
      const out = run.stdout + run.stderr;
      expect(run.exitCode, out).toBe(0);
      const pkg = readJson(join(genSession(repo), '.process/test-context-package.json'));
      expect(pkg.coverage).toMatchObject({ measured: true, how: expect.stringMatching(/coverage\.py/) });
      expect(pkg.coverage.files[0]).toMatchObject({ file: 'sign.py', lines: 0 });
      expect(out).toMatch(/\[coverage\] sign\.py: lines 0% → 100% \(target 80%\)/);
      const quality = readJson(join(genSession(repo), '.process/quality-gate.json'));
      expect(quality.coverage[0]).toMatchObject({ file: 'sign.py', linesAfter: 100, branchesAfter: 100 });
      expect(readFileSync(join(genSession(repo), '.summaries/gen-summary.md'), 'utf8')).toMatch(
        /\| sign\.py \| 0% → 100%/,
      );
    },
    300_000,
  );
});
