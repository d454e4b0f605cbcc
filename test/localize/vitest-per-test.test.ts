import { existsSync, readdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { execaSync } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { makeRepo, removeRepos, ROOT } from '../helpers/repo.js';
import { resolveRunner } from '../../src/engine/runners/index.js';
import { localize } from '../../src/engine/localize/index.js';
import { runSpectrum } from '../../src/engine/localize/coverage-run.js';
import { failuresOf } from './failures-of.js';
import { PRICE_MJS } from './price-source.js';

afterAll(removeRepos);

// A bug that was always there (no change to point at). Every test runs `total`; only the failing one runs
// `discount`, the buggy function, and `label`, a one-line helper it calls. vitest has no coverage provider
// here (the project installs none): its units per test come from the setup file fixcycle's generated config
// adds. vitest runs its transform of each file: the lines come back through its source map.
const shop = (test: string, extra: Record<string, string> = {}) => ({
  'package.json': JSON.stringify({ name: 'shop', type: 'module', scripts: { test } }),
  '.gitignore': 'node_modules\n',
  'src/price.js': PRICE_MJS,
  'test/price.test.js': [
    "import { beforeEach, describe, expect, it } from 'vitest';",
    "import { total, discount, label } from '../src/price.js';",
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
    '    expect([total, discount, label].map((f) => typeof f)).toEqual(["function", "function", "function"]);',
    '  });',
    "  it('discount takes a tenth off', () => {",
    "    expect(label(discount(total(cart), 0.1))).toBe('45.00 EUR');",
    '  });',
    '});',
    '',
  ].join('\n'),
  ...extra,
});

async function brokenShop(test: string, extra: Record<string, string> = {}) {
  const repo = makeRepo(null, shop(test, extra));
  symlinkSync(join(ROOT, 'node_modules'), join(repo, 'node_modules'));
  const runner = await resolveRunner(repo, {});
  expect(runner.name).toBe('vitest');
  const run = await runner.run({ cwd: repo, scope: 'full', timeoutMs: 60_000 });
  const failures = failuresOf(run.result.tests);
  expect(failures.map((f) => f.name)).toEqual(['discount takes a tenth off']);
  return { repo, runner, failures };
}

const lines = (...n: number[]) => n.map((line) => `src/price.js:${line}`);
const byNumber = (a: string, b: string) => a.localeCompare(b, 'en', { numeric: true });
const untracked = (repo: string) =>
  execaSync('git', ['status', '--porcelain', '--ignored'], { cwd: repo })
    .stdout.split('\n')
    .filter((l) => l && !l.endsWith('node_modules'));

describe('vitest: a spectrum unit per test from one run, through a setup file a generated config adds', () => {
  it('gives each test its own lines without a coverage provider and writes nothing into the project', async () => {
    const { repo, runner, failures } = await brokenShop('vitest run');
    const spectrum = await runSpectrum({ root: repo, runner, failures, neighbours: [], timeoutMs: 60_000 });
    expect(spectrum).toMatchObject({ granularity: 'test', ran: '1 test file(s)' });
    const units = 'units' in spectrum ? spectrum.units : [];
    expect(units.map((u) => ({ ...u, lines: [...u.lines].sort(byNumber) }))).toEqual([
      { name: 'price > total adds prices', failed: false, lines: lines(2, 3, 4, 5, 6, 7, 8) },
      { name: 'price > exports its three functions', failed: false, lines: [] },
      // Nothing of the file's top level: it ran when the test file imported it.
      {
        name: 'price > discount takes a tenth off',
        failed: true,
        lines: lines(2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
      },
    ]);
    expect(untracked(repo)).toEqual([]);

    const found = await localize({ root: repo, runner, failures, timeoutMs: 60_000, changeBase: null });
    expect(found.granularity).toBe('test');
    const ranks = found.suspects.map((s) => s.function);
    expect(ranks.slice(0, 2).sort()).toEqual(['discount', 'label']);
    expect(found.suspects[0]!.evidence.join('\n')).toMatch(
      /Ochiai 1 at line \d+ \(run by 1 of 1 failing and 0 of 2 passing tests\)/,
    );
    expect(ranks.indexOf('total')).toBeGreaterThan(1);
  }, 120_000);

  it('leaves out what vitest runs to report a failure: the getters of the error it serializes', async () => {
    const check = [
      'export function check(n) {', //                                                1
      "  if (n < 0) throw Object.defineProperty(new Error('negative'), 'empty', {", // 2
      '    get() {', //                                                               3
      '      return false;', //                                                       4
      '    },', //                                                                    5
      '  });', //                                                                     6
      '  return n;', //                                                               7
      '}', //                                                                         8
      '',
    ].join('\n');
    const test = [
      "import { expect, it } from 'vitest';",
      "import { check } from '../src/check.js';",
      "it('check passes positives', () => expect(check(1)).toBe(1));",
      "it('check is given a negative', () => expect(check(-1)).toBe(-1));",
      '',
    ].join('\n');
    const repo = makeRepo(null, {
      'package.json': JSON.stringify({ name: 'check', type: 'module', scripts: { test: 'vitest run' } }),
      '.gitignore': 'node_modules\n',
      'src/check.js': check,
      'test/check.test.js': test,
    });
    symlinkSync(join(ROOT, 'node_modules'), join(repo, 'node_modules'));
    const runner = await resolveRunner(repo, {});
    const run = await runner.run({ cwd: repo, scope: 'full', timeoutMs: 60_000 });
    const failures = failuresOf(run.result.tests);
    expect(failures.map((f) => f.name)).toEqual(['check is given a negative']);
    const spectrum = await runSpectrum({ root: repo, runner, failures, neighbours: [], timeoutMs: 60_000 });
    const units = 'units' in spectrum ? spectrum.units : [];
    // The getter's body (line 4) ran only when vitest serialized the error; its own lines 3 and 5 count as
    // run with `check` (a line is not run only when a range that did not run spans all of it).
    const failed = units.find((u) => u.failed)?.lines ?? [];
    expect(failed).toContain('src/check.js:2');
    expect(failed).not.toContain('src/check.js:4');
  }, 120_000);

  it("keeps the user's config: its setup files run after fixcycle's, its coverage turned off", async () => {
    const config = [
      "import { defineConfig } from 'vitest/config';",
      'export default defineConfig(() => ({',
      "  test: { setupFiles: ['./test/setup.js'], coverage: { enabled: true, reportsDirectory: 'cov' } },",
      '}));',
      '',
    ].join('\n');
    // The items come from the user's setup file: without it `total` throws at its loop.
    const test = shop('')['test/price.test.js'].replace(
      'const items = [{ price: 25, qty: 2 }];',
      'const items = globalThis.items;',
    );
    const { repo, runner, failures } = await brokenShop('vitest run --config config/vitest.config.ts', {
      'config/vitest.config.ts': config,
      'test/setup.js': 'globalThis.items = [{ price: 25, qty: 2 }];\n',
      'test/price.test.js': test,
    });
    const spectrum = await runSpectrum({ root: repo, runner, failures, neighbours: [], timeoutMs: 60_000 });
    const units = 'units' in spectrum ? spectrum.units : [];
    expect(units.map((u) => u.name)).toEqual([
      'price > total adds prices',
      'price > exports its three functions',
      'price > discount takes a tenth off',
    ]);
    expect(units[0]!.lines.sort(byNumber)).toEqual(lines(2, 3, 4, 5, 6, 7, 8));
    expect(units.find((u) => u.failed)?.lines.sort(byNumber)).toEqual(
      lines(2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
    );
    expect(existsSync(join(repo, 'cov'))).toBe(false);
    expect(readdirSync(join(repo, 'config'))).toEqual(['vitest.config.ts']);
    expect(untracked(repo)).toEqual([]);
  }, 120_000);
});
