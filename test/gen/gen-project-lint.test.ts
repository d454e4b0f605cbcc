import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeRepos, ROOT } from '../helpers/repo.js';
import { genProject, genSession, runGen } from '../helpers/gen-run.js';

afterAll(removeRepos);

const AGENT = join(ROOT, 'test/fixtures/agents/files-agent.mjs');

// fastify-send's and proxy-addr's shape: the project lints its tests with eslint's no-unused-vars, and a test that
// asserts nothing leaves the file's `assert` import unused. The linter's word is reported; what decides the test is
// its runs.
const base = {
  'package.json': JSON.stringify({ name: 'clamplib', private: true, scripts: { test: 'node --test' } }),
  'eslint.config.js':
    "module.exports = [{ files: ['**/*.js'], languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', module: 'writable', console: 'readonly' } }, rules: { 'no-unused-vars': 'error' } }];\n",
  'src/slug.js': "module.exports = (s) => s.trim().toLowerCase().replace(/\\s+/g, '-');\n",
  'test/slug.test.js':
    "const { test } = require('node:test');\nconst assert = require('node:assert');\nconst slug = require('../src/slug.js');\n\ntest('slug joins words', () => {\n  assert.strictEqual(slug(' A b '), 'a-b');\n});\n",
};
const change = {
  'src/clamp.js':
    'module.exports = function clamp(value, low, high) {\n  if (value < low) return low;\n  if (value > high) return high;\n  return value;\n};\n',
};
const head =
  "const { test } = require('node:test');\nconst assert = require('node:assert');\nconst clamp = require('../src/clamp.js');\n";

describe("gen on a project that lints its tests: the project's linter never decides a test", () => {
  it('a test asserting nothing, its assert import unused, is rejected by its runs (checks nothing), not by no-unused-vars; the real test is committed', async () => {
    const repo = genProject(base, change, true);
    const agent = mkdtempSync(join(tmpdir(), 'fixcycle-files-agent-'));
    const plan = {
      target: 'src/clamp.js:clamp',
      rounds: [
        {
          'test/clamp.test.js': `${head}\ntest('clamps below', () => {\n  assert.strictEqual(clamp(-5, 0, 10), 0);\n});\n\ntest('clamps above', () => {\n  assert.strictEqual(clamp(50, 0, 10), 10);\n});\n\ntest('keeps a value inside', () => {\n  assert.strictEqual(clamp(5, 0, 10), 5);\n});\n`,
          'test/clamp-smoke.test.js': `${head}\ntest('runs without throwing', () => {\n  const result = clamp(5, 0, 10);\n  console.log(result);\n});\n`,
        },
      ],
    };
    writeFileSync(join(agent, 'plan.json'), JSON.stringify(plan));
    const { out, exitCode, state, committed } = await runGen(
      repo,
      `${process.execPath} ${AGENT} ${agent} ${join(agent, 'plan.json')}`,
    );
    // The linter ran, and its finding is in L0's report.
    const l0 = JSON.parse(readFileSync(join(genSession(repo), '.process/l0-round-1.json'), 'utf8'));
    expect(l0.ran, out).toContain('eslint');
    expect(l0.findings.map((f: any) => `${f.file}: ${f.message}`)).toContain(
      "test/clamp-smoke.test.js: no-unused-vars: 'assert' is assigned a value but never used.",
    );
    const smoke = state.rejected.filter((r: any) => r.file === 'test/clamp-smoke.test.js');
    expect(smoke.map((r: any) => r.gate)).not.toContain('IMPL-001.3');
    expect(smoke.map((r: any) => r.reason).join('\n')).toMatch(/checks nothing[^]*asserts nothing/);
    // Reported, not sent back: the generator had one round, and the runs judged the file.
    expect(out).toMatch(
      /\[IMPL-001\.3\] done: round 1: 2 file\(s\), 0 critical, \d+ warning\(s\); the project's linter: 1 error\(s\), reported \(test\/clamp-smoke\.test\.js:2: no-unused-vars/,
    );
    expect(state.generate_round).toBe(1);
    expect(committed).toEqual(['test/clamp.test.js']);
    expect(exitCode, out).toBe(0);
  }, 480_000);
});
