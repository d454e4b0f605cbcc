import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { agentCmd, makeRepo, removeRepos, ROOT, runCli, scenario, state } from '../helpers/repo.js';
import { plan } from './plans.js';

afterAll(removeRepos);

const fixAdd = { edits: [{ file: 'src/math.ts', search: 'a - b', replace: 'a + b' }] };
const planAdd = { plan: plan('add() subtracts', 'src/math.ts:add:1', 'return a + b') };

/**
 * A project whose `npm test` builds first and runs the compiled tests (uuid's shape: `src/test/*.test.ts` built to
 * `dist/test/*.test.js`, run with `node --test`). The build is a small script that emits each `.ts` as `.js` (tsc
 * takes half a minute on a loaded machine); the sources carry no type syntax, so emitting is copying.
 */
function compiledProject(): string {
  const repo = makeRepo(null, {
    '.gitignore': 'node_modules\ndist\n',
    'package.json': JSON.stringify({
      name: 'compiled',
      private: true,
      type: 'module',
      scripts: { build: 'node build.mjs', test: 'npm run build && node --test dist/test/' },
    }),
    'build.mjs':
      "import { cpSync, readdirSync, renameSync, rmSync } from 'node:fs';\nrmSync('dist', { recursive: true, force: true });\ncpSync('src', 'dist', { recursive: true, filter: (f) => !f.endsWith('.test-d.ts') });\nfor (const f of readdirSync('dist', { recursive: true })) if (String(f).endsWith('.ts')) renameSync(`dist/${f}`, `dist/${String(f).replace(/\\.ts$/, '.js')}`);\n",
    'src/math.ts': 'export const add = (a, b) => a - b;\nexport const twice = (a) => a * 2;\n',
    'src/test/add.test.ts':
      "import test from 'node:test';\nimport assert from 'node:assert/strict';\nimport { add } from '../math.js';\ntest('adds', () => assert.equal(add(2, 3), 5));\ntest('adds zero', () => assert.equal(add(2, 0), 2));\n",
    'src/test/twice.test.ts':
      "import test from 'node:test';\nimport assert from 'node:assert/strict';\nimport { twice } from '../math.js';\ntest('doubles', () => assert.equal(twice(4), 8));\n",
  });
  symlinkSync(join(ROOT, 'node_modules'), join(repo, 'node_modules'));
  return repo;
}

/** A mocha project with a type test under test/types that tsd reads and mocha never runs (tap + tsd's shape). */
function typeTestProject(): string {
  const repo = makeRepo(null, {
    '.gitignore': 'node_modules\n',
    'package.json': JSON.stringify({
      name: 'typed',
      private: true,
      type: 'module',
      scripts: { test: 'mocha test/*.test.js' },
    }),
    'src/math.js': 'export const add = (a, b) => a - b;\n',
    'src/math.d.ts': 'export declare const add: (a: number, b: number) => number;\n',
    'test/add.test.js':
      "import assert from 'node:assert/strict';\nimport { add } from '../src/math.js';\nit('adds', () => assert.equal(add(2, 3), 5));\nit('adds zero', () => assert.equal(add(2, 0), 2));\n",
    'test/types/math.test-d.ts':
      "import { add } from '../../src/math.js';\nconst sum: number = add(1, 2);\nexport default sum;\n",
  });
  symlinkSync(join(ROOT, 'node_modules'), join(repo, 'node_modules'));
  return repo;
}

describe('an affected re-test runs what the full command runs, in the form it runs it', { timeout: 240_000 }, () => {
  it("leaves out a type test the full run never reported a test from (mocha reports each test's file)", async () => {
    const repo = typeTestProject();
    const agent = scenario({
      analyze: [{ plan: plan('add() subtracts', 'src/math.js:add:1', 'return a + b') }],
      fix: [{ edits: [{ file: 'src/math.js', search: 'a - b', replace: 'a + b' }] }],
    });
    const run = await runCli(repo, ['run', '--headless', '--agent-cmd', agentCmd(agent.path)]);
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    const s = state(repo);
    expect(s.iterations).toHaveLength(1);
    expect(s.iterations[0].tests_run_reason).toMatch(
      /left out test\/types\/math\.test-d\.ts: the full test run reports no test from it/,
    );
    expect(run.stdout).toMatch(/\[retest\] done: pass 100% \(2\/2\)/);
    expect(run.stdout).not.toMatch(/failed outside its tests/);
  });

  it("an affected run that fails outside its tests where the full command does not (a source test it runs compiled) is not the agent's work", async () => {
    // node 20's TAP names no file for a passing test, so the selection is not narrowed: the full command decides.
    const repo = compiledProject();
    const agent = scenario({ analyze: [planAdd], fix: [fixAdd] });
    const run = await runCli(repo, ['run', '--headless', '--agent-cmd', agentCmd(agent.path)]);
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    expect(agent.calls()).toHaveLength(2);
    const s = state(repo);
    expect(s.iterations).toHaveLength(1);
    expect(s.iterations[0]).toMatchObject({ result: 'improved', pass_rate: 100 });
    expect(run.stdout).toMatch(
      /the affected run failed outside its tests \([^\n]*ERR_UNKNOWN_FILE_EXTENSION[^\n]*\); the full test command runs, and its result counts/,
    );
    expect(run.stdout).toMatch(/\[retest\] done: pass 100% \(3\/3\)/);
  });
});
