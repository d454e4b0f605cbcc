import { describe, expect, it, afterAll, onTestFinished } from 'vitest';
import { rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { makeRepo, removeRepos, ROOT } from '../helpers/repo.js';
import { missingTool } from '../runners/helpers/fixtures.js';
import { resolveRunner } from '../../src/engine/runners/index.js';
import { withCoverage, coverageSupport } from '../../src/engine/gen/coverage/measure.js';
import { changedCoverage, coveredKeys, lineRanges } from '../../src/engine/gen/coverage/model.js';

afterAll(removeRepos);

const mod = [
  'export function sign(n) {',
  '  if (n < 0) {',
  "    return 'negative';",
  '  }',
  "  return 'positive';",
  '}',
  '',
  'export function unused() {',
  '  return 42;',
  '}',
  '',
].join('\n');

describe('coverage for the gates', () => {
  it('node:test: V8 coverage mapped to lines and branches; a file no test loads counts as uncovered', async () => {
    const repo = makeRepo(null, {
      'package.json': '{ "type": "module", "scripts": { "test": "node --test" } }',
      'src/sign.js': mod,
      'src/never.js': 'export const x = () => 1;\n',
      'test/sign.test.js':
        "import { test } from 'node:test';\nimport assert from 'node:assert';\nimport { sign } from '../src/sign.js';\ntest('positive', () => {\n  assert.equal(sign(1), 'positive');\n});\n",
    });
    const runner = await resolveRunner(repo, {});
    expect(coverageSupport(runner.name)).toMatchObject({ ok: true });
    const { result, coverage } = await withCoverage(runner, repo, ['src/never.js'], (r) =>
      r.run({ cwd: repo, scope: 'full', timeoutMs: 60_000 }),
    );
    expect(result.result.tests.map((t) => t.status)).toEqual(['passed']);
    const sign = changedCoverage(coverage, 'src/sign.js', [1, 2, 3, 4, 5, 6, 8, 9, 10]);
    expect(sign.uncovered).toEqual(expect.arrayContaining([3, 9]));
    expect(sign.uncovered).not.toContain(5);
    expect(sign.lines).toBeGreaterThan(50);
    expect(sign.lines).toBeLessThan(100);
    expect(sign.totalBranches).toBeGreaterThan(0);
    expect(sign.branches).toBeLessThan(100);
    expect(changedCoverage(coverage, 'src/never.js', [1])).toMatchObject({ lines: 0, uncovered: [1] });
    // Test files are not source: never in the coverage.
    expect(Object.keys(coverage).sort()).toEqual(['src/never.js', 'src/sign.js']);
    expect(coveredKeys(coverage).has('src/sign.js:5')).toBe(true);
    expect(process.env.NODE_V8_COVERAGE).toBeUndefined();
  });

  it('node:test in a project reached through a symlink (a team worktree inside the linked .workflow): V8 names the real path, the lines still count', async () => {
    const repo = makeRepo(null, {
      'package.json': '{ "type": "module", "scripts": { "test": "node --test" } }',
      'src/sign.js': mod,
      'test/sign.test.js':
        "import { test } from 'node:test';\nimport assert from 'node:assert';\nimport { sign } from '../src/sign.js';\ntest('positive', () => {\n  assert.equal(sign(1), 'positive');\n});\n",
    });
    const linked = `${repo}-link`;
    symlinkSync(repo, linked);
    onTestFinished(() => rmSync(linked));
    const runner = await resolveRunner(linked, {});
    const { coverage } = await withCoverage(runner, linked, [], (r) =>
      r.run({ cwd: linked, scope: 'full', timeoutMs: 60_000 }),
    );
    expect(Object.keys(coverage)).toEqual(['src/sign.js']);
    expect(changedCoverage(coverage, 'src/sign.js', [1, 2, 5])).toMatchObject({ lines: 100 });
  });

  const noGo = missingTool(['go', ['version']]);
  it.skipIf(noGo !== null)(
    `go: a -coverprofile through GOFLAGS, lines only${noGo ? ` (skipped: ${noGo})` : ''}`,
    async () => {
      const repo = makeRepo('projects/go-failing');
      const runner = await resolveRunner(repo, {});
      expect(runner.name).toBe('go');
      const { coverage } = await withCoverage(runner, repo, [], (r) =>
        r.run({ cwd: repo, scope: 'full', timeoutMs: 120_000 }),
      );
      expect(coverage['calc/calc.go']?.lines[3]).toBeGreaterThan(0);
      expect(changedCoverage(coverage, 'calc/calc.go', [3])).toMatchObject({ lines: 100, branches: null });
      expect(process.env.GOFLAGS ?? '').not.toMatch(/coverprofile/);
    },
    120_000,
  );

  it('jest: its own --coverage, read from coverage-final.json', async () => {
    const repo = makeRepo('projects/jest-failing');
    symlinkSync(join(ROOT, 'node_modules'), join(repo, 'node_modules'));
    const runner = await resolveRunner(repo, {});
    expect(runner.name).toBe('jest');
    const { result, coverage } = await withCoverage(runner, repo, [], (r) =>
      r.run({ cwd: repo, scope: 'full', timeoutMs: 120_000 }),
    );
    expect(result.result.tests.length).toBeGreaterThan(0);
    expect(Object.keys(coverage)).toEqual(['math.js']);
    expect(changedCoverage(coverage, 'math.js', [1, 2]).lines).toBeGreaterThan(0);
  }, 120_000);

  it('measures ava through V8 coverage, as node:test and mocha', () => {
    expect(coverageSupport('ava')).toMatchObject({ ok: true, how: expect.stringMatching(/NODE_V8_COVERAGE/) });
  });

  it('says why not for a runner it cannot measure', () => {
    expect(coverageSupport('cargo')).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/cannot measure coverage for the cargo runner/),
    });
    expect(lineRanges([3, 4, 5, 9, 11, 12])).toBe('3-5, 9, 11-12');
  });
});
