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

  // A failing test that checks a table of cases: a unit per case of it, what ran since the check before, failed
  // when its check failed (ava 6 would end the test at its first failed check). As one unit, `strip` (run by a
  // passing case) and the callback (by the failing ones) are both run by the failing test alone and tie. A failing
  // check that ran nothing of its own (`parses once` checks what one step computed) leaves its test one unit.
  it.skipIf(skip)(
    'gives each check of a failing test its own unit, and ranks the callback its failing cases call first',
    async () => {
      const repo = makeRepo(null, {
        'package.json': JSON.stringify({ name: 'tidy', type: 'module', scripts: { test: 'ava' } }),
        'src/tidy.cjs': [
          "'use strict';",
          "const strip = (s) => s.replace(/^\\s+|\\s+$/g, '');",
          'function tidy(s) {',
          "  const t = s.startsWith(' ') ? strip(s) : s;",
          '  return t.replace(/\\d+/g, (n) => n);',
          '}',
          "const parts = (s) => s.split('-');",
          'module.exports = { tidy, parts };',
          '',
        ].join('\n'),
        'test/tidy.js': [
          "import test from 'ava';",
          "import { createRequire } from 'node:module';",
          "const { tidy, parts } = createRequire(import.meta.url)('../src/tidy.cjs');",
          "test('tidies', (t) => {",
          "  t.is(tidy(' a'), 'a');",
          "  t.is(tidy('7'), '07');",
          "  t.is(tidy('12'), '12');",
          "  t.is(tidy('x9'), 'x09');",
          '});',
          "test('keeps words', (t) => {",
          "  t.is(tidy('word'), 'word');",
          '});',
          "test('parses once', (t) => {",
          "  const r = parts('a-b');",
          "  t.is(r[0], 'a');",
          "  t.is(r[1], 'c');",
          '});',
          '',
        ].join('\n'),
      });
      symlinkSync((ava as { modules: string }).modules, join(repo, 'node_modules'));
      const runner = await resolveRunner(repo, {});
      const run = await runner.run({ cwd: repo, scope: 'full', timeoutMs: 120_000 });
      const failures = failuresOf(run.result.tests);
      expect(failures.map((f) => f.name).sort()).toEqual(['parses once', 'tidies']);
      const spectrum = await runSpectrum({ root: repo, runner, failures, neighbours: [], timeoutMs: 120_000 });
      const units = 'units' in spectrum ? spectrum.units : [];
      expect(units.map(({ name, failed }) => ({ name, failed }))).toEqual([
        { name: 'tidies (check 1)', failed: false },
        { name: 'tidies (check 2)', failed: true },
        { name: 'tidies (check 3)', failed: false },
        { name: 'tidies (check 4)', failed: true },
        { name: 'keeps words', failed: false },
        { name: 'parses once', failed: true },
      ]);
      const found = await localize({ root: repo, runner, failures, timeoutMs: 120_000, changeBase: null });
      expect(found.suspects[0]).toMatchObject({ function: 'tidy > (replace callback)', startLine: 5 });
      expect(found.suspects[0]!.evidence[0]).toBe(
        'coverage: Ochiai 0.667 at line 5, its calls, (run by 2 of 3 failing and 1 of 3 passing tests)',
      );
      expect(found.suspects.find((s) => s.function === 'strip')).toBeUndefined();
    },
    240_000,
  );
});
