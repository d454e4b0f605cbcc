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
// `discount`, the buggy function, and `label`, a one-line helper it calls. With jest's coverage the passing
// tests of the file are one unit at best; with a unit per test, `total` is run by passing tests and ranks below
// both. jest runs babel's transform of each file: the lines come back through its source map, a blank line
// and a reformatted export moving them.
const shop = (test: string, config: Record<string, unknown> = {}) => ({
  'package.json': JSON.stringify({ name: 'shop', scripts: { test }, jest: config }),
  'src/price.js': PRICE_JS,
  'test/price.test.js': [
    "const { total, discount, label } = require('../src/price.js');",
    'const items = [{ price: 25, qty: 2 }];',
    "describe('price', () => {",
    '  let cart;',
    '  beforeEach(() => {',
    '    cart = items.slice();',
    '  });',
    "  it('total adds prices', () => {",
    '    expect(total(cart)).toBe(50);',
    '  });',
    "  it('exports its three functions', () => {",
    "    expect(Object.keys(require('../src/price.js'))).toEqual(['total', 'discount', 'label']);",
    '  });',
    "  it('discount takes a tenth off', () => {",
    "    expect(label(discount(total(cart), 0.1))).toBe('45.00 EUR');",
    '  });',
    '});',
    '',
  ].join('\n'),
});

async function brokenShop(test: string, config: Record<string, unknown> = {}) {
  const repo = makeRepo(null, shop(test, config));
  symlinkSync(join(ROOT, 'node_modules'), join(repo, 'node_modules'));
  const runner = await resolveRunner(repo, {});
  expect(runner.name).toBe('jest');
  const run = await runner.run({ cwd: repo, scope: 'full', timeoutMs: 60_000 });
  const failures = failuresOf(run.result.tests);
  expect(failures.map((f) => f.name)).toEqual(['discount takes a tenth off']);
  return { repo, runner, failures };
}

const lines = (...n: number[]) => n.map((line) => `src/price.js:${line}`);
const byNumber = (a: string, b: string) => a.localeCompare(b, 'en', { numeric: true });

describe('jest: a spectrum unit per test from one run, through a preloaded file', () => {
  it('gives each test its own lines through babel-jest, its own coverage on in the config turned off', async () => {
    const { repo, runner, failures } = await brokenShop('jest', { collectCoverage: true });
    const spectrum = await runSpectrum({ root: repo, runner, failures, neighbours: [], timeoutMs: 60_000 });
    expect(spectrum).toMatchObject({ granularity: 'test', ran: '1 test file(s)' });
    const units = 'units' in spectrum ? spectrum.units : [];
    expect(units.map((u) => ({ ...u, lines: [...u.lines].sort(byNumber) }))).toEqual([
      { name: 'price > total adds prices', failed: false, lines: lines(2, 3, 4, 5, 6, 7, 8) },
      { name: 'price > exports its three functions', failed: false, lines: [] },
      // Nothing of the file's top level: it ran when the test file loaded it.
      {
        name: 'price > discount takes a tenth off',
        failed: true,
        lines: lines(2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
      },
    ]);

    const found = await localize({ root: repo, runner, failures, timeoutMs: 60_000, changeBase: null });
    expect(found.granularity).toBe('test');
    const ranks = found.suspects.map((s) => s.function);
    expect(ranks.slice(0, 2).sort()).toEqual(['discount', 'label']);
    expect(found.suspects[0]!.evidence.join('\n')).toMatch(
      /Ochiai 1 at line \d+ \(run by 1 of 1 failing and 0 of 2 passing tests\)/,
    );
    expect(ranks.indexOf('total')).toBeGreaterThan(1);
  }, 120_000);

  it('reads the file itself where jest runs it untransformed', async () => {
    const { repo, runner, failures } = await brokenShop('jest', { transform: {} });
    const spectrum = await runSpectrum({ root: repo, runner, failures, neighbours: [], timeoutMs: 60_000 });
    const units = 'units' in spectrum ? spectrum.units : [];
    expect(units.find((u) => u.failed)?.lines.sort(byNumber)).toEqual(
      lines(2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
    );
  }, 120_000);
});
