import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeRepo, removeRepos, ROOT } from '../helpers/repo.js';
import { resolveRunner } from '../../src/engine/runners/index.js';
import { localize } from '../../src/engine/localize/index.js';
import { runSpectrum } from '../../src/engine/localize/coverage-run.js';
import { failuresOf } from './failures-of.js';
import { PRICE_JS } from './price-source.js';

afterAll(removeRepos);

// A bug that was always there (no change to point at). Every test runs `total`; only the failing one runs
// `discount`, the buggy function, and `label`, a one-line helper it calls. With the run as one unit (tape has
// no name filter) they all tie; with a unit per test, `total` is run by a passing test and ranks below both.
// The failing test is a subtest: its parent's own code is the parent's.
const shop = (test: string) => ({
  'package.json': JSON.stringify({ name: 'shop', scripts: { test } }),
  'src/price.js': PRICE_JS,
  'test/price.js': [
    "const test = require('tape');",
    "const { total, discount, label } = require('../src/price.js');",
    'const items = [{ price: 25, qty: 2 }];',
    "test('total adds prices', (t) => {",
    '  t.equal(total(items), 50);',
    '  t.end();',
    '});',
    "test('exports its three functions', (t) => {",
    "  t.deepEqual(Object.keys(require('../src/price.js')), ['total', 'discount', 'label']);",
    '  t.end();',
    '});',
    "test('prices', (t) => {",
    '  const tenth = 0.1;',
    "  t.test('discount takes a tenth off', (st) => {",
    "    st.equal(label(discount(total(items), tenth)), '45.00 EUR', 'a tenth off');",
    '    st.end();',
    '  });',
    '  t.end();',
    '});',
    '',
  ].join('\n'),
});

describe('tape: a spectrum unit per test from one run, through a preloaded file', () => {
  it('gives each test its own lines, passing or failing, and ranks what only the failing test ran first', async () => {
    const repo = makeRepo(null, shop('tape test/*.js'));
    symlinkSync(join(ROOT, 'node_modules'), join(repo, 'node_modules'));
    const runner = await resolveRunner(repo, {});
    expect(runner.name).toBe('tape');
    const run = await runner.run({ cwd: repo, scope: 'full', timeoutMs: 60_000 });
    const failures = failuresOf(run.result.tests);
    // tape reports assertions: the test's name is in the id.
    expect(failures.map((f) => f.id)).toEqual(['discount takes a tenth off > a tenth off']);

    const spectrum = await runSpectrum({ root: repo, runner, failures, neighbours: [], timeoutMs: 60_000 });
    expect(spectrum).toMatchObject({ granularity: 'test' });
    const units = 'units' in spectrum ? spectrum.units : [];
    const lines = (...n: number[]) => n.map((line) => `src/price.js:${line}`);
    const byNumber = (a: string, b: string) => a.localeCompare(b, 'en', { numeric: true });
    expect(units.map((u) => ({ ...u, lines: [...u.lines].sort(byNumber) }))).toEqual([
      { name: 'total adds prices', failed: false, lines: lines(2, 3, 4, 5, 6, 7, 8) },
      { name: 'exports its three functions', failed: false, lines: [] },
      // The subtest ends before its parent: its take comes first.
      {
        name: 'discount takes a tenth off',
        failed: true,
        lines: lines(2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
      },
      // The parent's own code is in the test file.
      { name: 'prices', failed: false, lines: [] },
    ]);

    const found = await localize({ root: repo, runner, failures, timeoutMs: 60_000, changeBase: null });
    expect(found.granularity).toBe('test');
    const ranks = found.suspects.map((s) => s.function);
    expect(ranks.slice(0, 2).sort()).toEqual(['discount', 'label']);
    expect(found.suspects[0]!.evidence.join('\n')).toMatch(
      /Ochiai 1 at line \d+ \(run by 1 of 1 failing and 0 of 3 passing tests\)/,
    );
    expect(ranks.indexOf('total')).toBeGreaterThan(1);
  }, 120_000);
});
