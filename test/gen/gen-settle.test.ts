import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { git, readJson, removeRepos, ROOT, runCli } from '../helpers/repo.js';
import { genProject, genSession } from '../helpers/gen-run.js';
import { absentExport } from '../../src/engine/gen/absent-export.js';

afterAll(removeRepos);

const AGENT = join(ROOT, 'test/fixtures/agents/files-agent.mjs');

// json-schema-traverse's shape: a CommonJS module exported as `var clamp = module.exports = function`, its
// properties set after, which L0's static reading of the exports cannot tell.
const base = {
  'package.json': JSON.stringify({ name: 'clamplib', private: true, scripts: { test: 'node --test' } }),
  'src/slug.js': "module.exports = (s) => s.trim().toLowerCase().replace(/\\s+/g, '-');\n",
  'test/slug.test.js':
    "const { test } = require('node:test');\nconst assert = require('node:assert');\nconst slug = require('../src/slug.js');\n\ntest('slug joins words', () => {\n  assert.strictEqual(slug(' A b '), 'a-b');\n});\n",
};
const change = {
  'src/clamp.js':
    "'use strict';\n\nvar clamp = module.exports = function (value, low, high) {\n  if (value < low) return low;\n  if (value > high) return high;\n  return value;\n};\n\nclamp.limits = { low: 0, high: 10 };\n",
};
const head = "const { test } = require('node:test');\nconst assert = require('node:assert');\n";

describe('gen: a kept test never fails once committed', () => {
  it('a name the module lacks at run time is a hallucinated API, though no TypeError names it (node loads the module)', async () => {
    const repo = genProject(base, change);
    writeFileSync(
      join(repo, 'test/clamp-api.test.js'),
      `${head}const clamp = require('../src/clamp.js');\nconst { walk, limits } = require('../src/clamp.js');\n\ntest('walk agrees with clamp', () => {\n  assert.strictEqual(clamp(5, 0, 10), 5);\n  assert.strictEqual(typeof walk, 'function');\n});\n\ntest('limits', () => {\n  assert.strictEqual(limits.high, 10);\n});\n`,
    );
    expect(await absentExport(repo, 'test/clamp-api.test.js', ['walk agrees with clamp'])).toEqual({
      name: 'walk',
      from: '../src/clamp.js',
    });
    // `limits` is there: the test using only it names nothing absent.
    expect(await absentExport(repo, 'test/clamp-api.test.js', ['limits'])).toBeNull();
  });

  it('a generated test still failing after the fix loop is dropped, its file run again and committed without it: exit 0, partial success', async () => {
    const repo = genProject(base, change);
    const agent = mkdtempSync(join(tmpdir(), 'fixcycle-files-agent-'));
    const plan = {
      target: 'src/clamp.js:clamp',
      rounds: [
        {
          // The third test expects what the code does not do; nothing says it is the test's fault but the fix loop.
          'test/clamp.test.js': `${head}const clamp = require('../src/clamp.js');\n\ntest('clamps below', () => {\n  assert.strictEqual(clamp(-5, 0, 10), 0);\n});\n\ntest('clamps above', () => {\n  assert.strictEqual(clamp(50, 0, 10), 10);\n});\n\ntest('keeps a value inside', () => {\n  assert.strictEqual(clamp(5, 0, 10), 6);\n});\n`,
          'test/clamp-api.test.js': `${head}const { walk } = require('../src/clamp.js');\n\ntest('walk is a function', () => {\n  assert.strictEqual(typeof walk, 'function');\n});\n`,
        },
      ],
    };
    writeFileSync(join(agent, 'plan.json'), JSON.stringify(plan));
    const run = await runCli(
      repo,
      [
        'gen',
        '--headless',
        '--max-iterations',
        '1',
        '--agent-cmd',
        `${process.execPath} ${AGENT} ${agent} ${join(agent, 'plan.json')}`,
      ],
      { timeoutMs: 420_000 },
    );
    const out = run.stdout + run.stderr;
    const state = readJson(join(genSession(repo), '.process/gen-state.json'));
    const reason = (test: string): string => state.rejected.find((r: any) => r.test === test)?.reason ?? '(kept)';
    // The hallucinated API never reaches the fix loop.
    expect(reason('test/clamp-api.test.js::walk is a function'), out).toMatch(
      /^export: uses walk from \.\.\/src\/clamp\.js, which the module does not provide when node loads it/,
    );
    // The wrong expectation went to the fix loop, which could not make it pass: dropped after it, with the run's words.
    expect(reason('test/clamp.test.js::keeps a value inside')).toMatch(
      /still failing after the fix loop: run alone once the loop ended, it failed \(.*\)/,
    );
    expect(state.rejected.find((r: any) => r.test === 'test/clamp.test.js::keeps a value inside').gate).toBe(
      'IMPL-002',
    );
    expect(state.kept.map((k: any) => k.test).sort()).toEqual([
      'test/clamp.test.js::clamps above',
      'test/clamp.test.js::clamps below',
    ]);
    // Committed at HEAD: the two passing tests, and they pass there.
    const committed = git(repo, 'show', 'HEAD:test/clamp.test.js');
    expect(committed).toContain('clamps below');
    expect(committed).not.toContain('keeps a value inside');
    expect(git(repo, 'log', '-1', '--format=%s')).toMatch(
      /^test-gen: IMPL-002 - 1 generated test\(s\) dropped, still failing after the fix loop/,
    );
    expect(git(repo, 'status', '--porcelain')).toBe('');
    const suite = spawnSync(process.execPath, ['--test'], { cwd: repo, encoding: 'utf8' });
    expect(suite.status, suite.stdout).toBe(0);
    expect(state.outcome).toMatch(
      /^partial_success: the fix loop ended without success .*the 2 generated test\(s\) left pass/,
    );
    expect(out).toMatch(/\[done\] partial success/);
    expect(run.exitCode, out).toBe(0);
  }, 480_000);
});
