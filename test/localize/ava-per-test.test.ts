import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeRepo, removeRepos } from '../helpers/repo.js';
import { installRunner } from '../runners/helpers/runner-versions.js';
import { resolveRunner } from '../../src/engine/runners/index.js';
import { localize } from '../../src/engine/localize/index.js';
import { runSpectrum } from '../../src/engine/localize/coverage-run.js';
import { failuresOf } from './failures-of.js';
import { PRICE_JS } from './price-source.js';

afterAll(removeRepos);

// ava 6, installed from the npm registry into a cache outside the repository (the repository does not depend on
// it). A bug that was always there (no change to point at). Every test runs `total`; only the failing one runs
// `discount`, the buggy function, and `label`, a one-line helper it calls. With the failing test apart from the
// passing ones (`split`) the passing tests are one unit; with a unit per test, `total` is run by passing tests and
// ranks below both. The tests are ES modules, one of them async, a `beforeEach` hook runs shop code that is no
// test's, and a macro runs a test.
const ava = installRunner('ava@6');
const skip = 'skip' in ava ? ava.skip : null;

const shop = () => ({
  'package.json': JSON.stringify({ name: 'shop', type: 'module', scripts: { test: 'ava' } }),
  'src/price.cjs': PRICE_JS,
  'test/price.js': [
    "import test from 'ava';",
    "import { createRequire } from 'node:module';",
    "const { total, discount, label } = createRequire(import.meta.url)('../src/price.cjs');",
    'const items = [{ price: 25, qty: 2 }];',
    'test.beforeEach((t) => {',
    '  t.context.formatted = label(1);',
    '});',
    "test('total adds prices', (t) => {",
    '  t.is(total(items), 50);',
    '});',
    'const exportsAll = test.macro((t, keys) => {',
    "  t.deepEqual(Object.keys(createRequire(import.meta.url)('../src/price.cjs')), keys);",
    '});',
    "test('exports its three functions', exportsAll, ['total', 'discount', 'label']);",
    "test('discount takes a tenth off', async (t) => {",
    '  await Promise.resolve();',
    "  t.is(label(discount(total(items), 0.1)), '45.00 EUR');",
    '});',
    '',
  ].join('\n'),
});

describe(`ava: a spectrum unit per test from one run, through a preloaded file${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it.skipIf(skip)(
    'gives each test its own lines, passing or failing, and ranks what only the failing test ran first',
    async () => {
      const repo = makeRepo(null, shop());
      symlinkSync((ava as { modules: string }).modules, join(repo, 'node_modules'));
      const runner = await resolveRunner(repo, {});
      expect(runner.name).toBe('ava');
      const run = await runner.run({ cwd: repo, scope: 'full', timeoutMs: 120_000 });
      const failures = failuresOf(run.result.tests);
      expect(failures.map((f) => f.id)).toEqual(['test/price.js::discount takes a tenth off']);

      const spectrum = await runSpectrum({ root: repo, runner, failures, neighbours: [], timeoutMs: 120_000 });
      expect(spectrum).toMatchObject({ granularity: 'test' });
      const units = 'units' in spectrum ? spectrum.units : [];
      const lines = (...n: number[]) => n.map((line) => `src/price.cjs:${line}`);
      const byNumber = (a: string, b: string) => a.localeCompare(b, 'en', { numeric: true });
      // In the order they ran (`--serial`); `label` in the `beforeEach` hook is no test's.
      expect(units.map((u) => ({ ...u, lines: [...u.lines].sort(byNumber) }))).toEqual([
        { name: 'total adds prices', failed: false, lines: lines(2, 3, 4, 5, 6, 7, 8) },
        { name: 'exports its three functions', failed: false, lines: [] },
        {
          name: 'discount takes a tenth off',
          failed: true,
          lines: lines(2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
        },
      ]);

      const found = await localize({ root: repo, runner, failures, timeoutMs: 120_000, changeBase: null });
      expect(found.granularity).toBe('test');
      const ranks = found.suspects.map((s) => s.function);
      expect(ranks.slice(0, 2).sort()).toEqual(['discount', 'label']);
      expect(found.suspects[0]!.evidence.join('\n')).toMatch(
        /Ochiai 1 at line \d+ \(run by 1 of 1 failing and 0 of 2 passing tests\)/,
      );
      expect(ranks.indexOf('total')).toBeGreaterThan(1);
    },
    240_000,
  );
});
