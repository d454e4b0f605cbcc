// pnpm and yarn workspaces and `just` run for real, as a user's `npm test` has them (issue 19). Each test needs
// its tool on PATH: pnpm and yarn 1 are devDependencies, so `npm test` has them; .ci/run installs rust-just (a prebuilt
// just) beside them. Where a tool is missing its test skips naming it.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveRunner } from '../../src/engine/runners/index.js';
import { counts, missingTool, removeFixtures } from './helpers/fixtures.js';
import { assemble } from './helpers/wrapped-fixtures.js';

afterAll(removeFixtures);

const noPnpm = missingTool(['pnpm', ['--version']]);
const noYarn = missingTool(['yarn', ['--version']]);
const noJust = missingTool(['just', ['--version']]);
const skipped = (missing: string | null) => (missing ? ` (${missing})` : '');
// mocha in packages/alpha: 1 passing, 2 failing, 1 pending (jest in packages/beta never runs: the tool stops first).
const ALPHA = { passed: 1, failed: 2, skipped: 1, errors: 0 };

function workspace(scripts: Record<string, string>, versions: boolean): string {
  const dir = assemble('npm-workspaces');
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'ws', private: true, workspaces: ['packages/*'], scripts }),
  );
  writeFileSync(join(dir, 'pnpm-workspace.yaml'), "packages:\n  - 'packages/*'\n");
  for (const name of versions ? ['alpha', 'beta'] : []) {
    const file = join(dir, 'packages', name, 'package.json');
    writeFileSync(file, JSON.stringify({ version: '1.0.0', ...(JSON.parse(readFileSync(file, 'utf8')) as object) }));
  }
  return dir;
}

describe('workspace managers and just, run as written', () => {
  it.skipIf(noPnpm)(
    `pnpm -r test stops at the first failing package: its tests counted, the package it stopped is no crash${skipped(noPnpm)}`,
    async () => {
      const dir = workspace({ test: 'pnpm -r test' }, false);
      const runner = await resolveRunner(dir, {});
      expect(runner.describe().full).toEqual(['pnpm', '-r', 'test']);
      const run = await runner.run({ cwd: dir, scope: 'full', timeoutMs: 120_000 });
      expect(counts(run.result)).toEqual(ALPHA);
      expect(run.result.errors).toEqual([]);
      expect(run.result.stopped).toMatch(/^pnpm -r stopped at the first failing package/);
    },
    180_000,
  );

  it.skipIf(noYarn)(
    `yarn workspaces run test (yarn 1) stops at the first failing package too${skipped(noYarn)}`,
    async () => {
      const dir = workspace({ test: 'yarn workspaces run test' }, true);
      const run = await (await resolveRunner(dir, {})).run({ cwd: dir, scope: 'full', timeoutMs: 120_000 });
      expect(counts(run.result)).toEqual(ALPHA);
      expect(new Set(run.result.tests.map((t) => t.package))).toEqual(new Set(['packages/alpha']));
      expect(run.result.stopped).toMatch(/^yarn workspaces stopped at the first failing package/);
    },
    180_000,
  );

  it.skipIf(noYarn)(
    `yarn workspaces that run no runner ran no test, in yarn's words (never a passing check named after the command)${skipped(noYarn)}`,
    async () => {
      // yarn 1 ignores a workspace without a version, and exits 0 having run nothing.
      const dir = workspace({ test: 'yarn workspaces run test' }, false);
      const run = await (await resolveRunner(dir, {})).run({ cwd: dir, scope: 'full', timeoutMs: 120_000 });
      expect(run.exitCode).toBe(0);
      expect(run.result.tests).toEqual([]);
      expect(run.result.errors).toHaveLength(1);
      expect(run.result.errors[0]!.message).toMatch(
        /^the test command ran no tests \(yarn workspaces run test\)[\s\S]*Missing version in workspace/,
      );
    },
    180_000,
  );

  it.skipIf(noJust)(
    `just test runs the recipe as written; mocha's counts read from under it${skipped(noJust)}`,
    async () => {
      const dir = assemble('make-mocha');
      writeFileSync(join(dir, 'justfile'), 'test:\n    ./node_modules/.bin/mocha --config .config/mocha.json\n');
      writeFileSync(
        join(dir, 'package.json'),
        JSON.stringify({
          name: 'just-mocha',
          private: true,
          scripts: { test: 'just test' },
          devDependencies: { mocha: '11' },
        }),
      );
      const runner = await resolveRunner(dir, {});
      expect(runner.name).toBe('mocha');
      expect(runner.describe().full).toEqual(['just', 'test']);
      const run = await runner.run({ cwd: dir, scope: 'full', timeoutMs: 120_000 });
      expect(counts(run.result)).toEqual(ALPHA);
      expect(run.result.tests[0]!.id).toBe('spec/math.spec.js::math > adds');
    },
    180_000,
  );
});
