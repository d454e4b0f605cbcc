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

// A bug that was always there (no change to point at). Both tests of the file run `total`; only the failing one
// runs `discount`, the buggy function, and `describe`, a one-line helper it calls: with the passing tests of the
// file as one unit they would be told apart by hit counts at best; with a unit per test, `total` is run by a
// passing test and ranks below both, and `discount`, the bigger one with the test's name, ranks first.
const shop = (test: string) => ({
  'package.json': JSON.stringify({ name: 'shop', scripts: { test } }),
  'src/price.js': PRICE_JS,
  'test/price.test.js': [
    "const assert = require('node:assert');",
    "const { total, discount, label } = require('../src/price.js');",
    'const items = [{ price: 25, qty: 2 }];',
    "describe('price', () => {",
    "  it('total adds prices', () => {",
    '    assert.equal(total(items), 50);',
    '  });',
    "  it('exports its three functions', () => {",
    "    assert.deepEqual(Object.keys(require('../src/price.js')), ['total', 'discount', 'label']);",
    '  });',
    "  it('discount takes a tenth off', () => {",
    "    assert.equal(label(discount(total(items), 0.1)), '45.00 EUR');",
    '  });',
    '});',
    '',
  ].join('\n'),
});

/** The project in a repository with fixcycle's own mocha, run whole: its failures. */
async function broken(files: Record<string, string>) {
  const repo = makeRepo(null, files);
  symlinkSync(join(ROOT, 'node_modules'), join(repo, 'node_modules'));
  const runner = await resolveRunner(repo, {});
  expect(runner.name).toBe('mocha');
  const run = await runner.run({ cwd: repo, scope: 'full', timeoutMs: 60_000 });
  return { repo, runner, failures: failuresOf(run.result.tests) };
}

async function brokenShop(test: string) {
  const found = await broken(shop(test));
  expect(found.failures.map((f) => f.name)).toEqual(['discount takes a tenth off']);
  return found;
}

describe('mocha: a spectrum unit per test from one run, through fixcycle reporter', () => {
  it('gives each test its own lines, passing or failing, and ranks the buggy function alone first', async () => {
    const { repo, runner, failures } = await brokenShop('mocha');
    const spectrum = await runSpectrum({ root: repo, runner, failures, neighbours: [], timeoutMs: 60_000 });
    expect(spectrum).toMatchObject({ granularity: 'test', ran: '1 test file(s)' });
    const units = 'units' in spectrum ? spectrum.units : [];
    // v8-to-istanbul's lines: a function's range runs from its declaration to its closing brace.
    const lines = (...n: number[]) => n.map((line) => `src/price.js:${line}`);
    const byNumber = (a: string, b: string) => a.localeCompare(b, 'en', { numeric: true });
    expect(units.map((u) => ({ ...u, lines: [...u.lines].sort(byNumber) }))).toEqual([
      { name: 'price total adds prices', failed: false, lines: lines(2, 3, 4, 5, 6, 7, 8) },
      // Runs none of the source's functions: a unit of its own all the same (of how many passing tests).
      { name: 'price exports its three functions', failed: false, lines: [] },
      // `return amount + cut` ran; nothing of the file's top level (it ran when the test file loaded it).
      {
        name: 'price discount takes a tenth off',
        failed: true,
        lines: lines(2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
      },
    ]);

    const found = await localize({ root: repo, runner, failures, timeoutMs: 60_000, changeBase: null });
    expect(found.granularity).toBe('test');
    const [first, second] = found.suspects;
    expect(first).toMatchObject({ file: 'src/price.js', function: 'discount' });
    expect(first!.score).toBeGreaterThan(second!.score);
    expect(first!.evidence.join('\n')).toMatch(
      /Ochiai 1 at line \d+ \(run by 1 of 1 failing and 0 of 2 passing tests\)/,
    );
    const ranks = found.suspects.map((s) => s.function);
    expect(ranks.indexOf('total')).toBeGreaterThan(ranks.indexOf('label'));
  }, 120_000);

  it('falls back to the hit-count split when no test coverage comes back (parallel mode runs the tests in workers)', async () => {
    const { repo, runner, failures } = await brokenShop('mocha --parallel');
    const found = await localize({ root: repo, runner, failures, timeoutMs: 60_000, changeBase: null });
    expect(found.granularity).toBe('split');
    expect(found.suspects[0]).toMatchObject({ file: 'src/price.js', function: 'discount' });
  }, 120_000);

  // One-line arrow functions: V8 counts the call in a range that starts mid-line, and a test's take counts the
  // module's own code (which holds the line whole) 0. The line is the function's, run by the tests that call it.
  it("counts a one-line function's line as run by the tests that call it, and only by them", async () => {
    const { repo, runner, failures } = await broken({
      'package.json': JSON.stringify({ name: 'shape', scripts: { test: 'mocha' } }),
      'src/shape.js': [
        "'use strict';",
        "const isObject = (o) => typeof o === 'object';",
        'const keys = (o) => (isObject(o) ? Object.keys(o) : []);',
        'function show(v) {',
        '  return String(v);',
        '}',
        'module.exports = { keys, show };',
        '',
      ].join('\n'),
      'test/shape.test.js': [
        "const assert = require('node:assert');",
        "const { keys, show } = require('../src/shape.js');",
        "it('keys of an object', () => assert.deepEqual(keys({ a: 1 }), ['a']));",
        "it('shows a value', () => assert.equal(show(2), '2'));",
        "it('keys of null are none', () => assert.deepEqual(keys(null), []));",
        '',
      ].join('\n'),
    });
    expect(failures.map((f) => f.name)).toEqual(['keys of null are none']);
    const spectrum = await runSpectrum({ root: repo, runner, failures, neighbours: [], timeoutMs: 60_000 });
    const units = 'units' in spectrum ? spectrum.units : [];
    // Each line, and each one-line function's own calls at its offset (`isObject` at 31, `keys` at 74).
    const ran = ['src/shape.js:2', 'src/shape.js:2:fn31', 'src/shape.js:3', 'src/shape.js:3:fn74'];
    expect(units.map((u) => ({ ...u, lines: [...u.lines].sort() }))).toEqual([
      { name: 'keys of an object', failed: false, lines: ran },
      { name: 'shows a value', failed: false, lines: [] },
      { name: 'keys of null are none', failed: true, lines: ran },
    ]);
    const found = await localize({ root: repo, runner, failures, timeoutMs: 60_000, changeBase: null });
    expect(found.suspects.map((s) => s.function).sort()).toEqual(['isObject', 'keys']);
  }, 120_000);

  // A callback on a line of its caller's chain: the line runs whenever the chain does, so only the callback's own
  // calls tell it from its caller. Here the passing `trims` test runs the line without calling it.
  it("ranks a one-line callback by its own calls, not by its caller's line", async () => {
    const { repo, runner, failures } = await broken({
      'package.json': JSON.stringify({ name: 'tidy', scripts: { test: 'mocha' } }),
      'src/tidy.js': [
        "'use strict';",
        'function tidy(s) {',
        '  return s',
        '    .trim()',
        '    .replace(/\\d+/g, (n) => n);',
        '}',
        'module.exports = { tidy };',
        '',
      ].join('\n'),
      'test/tidy.test.js': [
        "const assert = require('node:assert');",
        "const { tidy } = require('../src/tidy.js');",
        "it('trims', () => assert.equal(tidy(' a '), 'a'));",
        "it('pads a number', () => assert.equal(tidy('7'), '07'));",
        "it('keeps two digits', () => assert.equal(tidy('12'), '12'));",
        '',
      ].join('\n'),
    });
    expect(failures.map((f) => f.name)).toEqual(['pads a number']);
    const found = await localize({ root: repo, runner, failures, timeoutMs: 60_000, changeBase: null });
    const [first, second] = found.suspects;
    expect(first).toMatchObject({ function: 'tidy > (replace callback)', startLine: 5, endLine: 5 });
    expect(first!.evidence[0]).toBe(
      'coverage: Ochiai 0.707 at line 5, its calls, (run by 1 of 1 failing and 1 of 2 passing tests)',
    );
    expect(second).toMatchObject({ function: 'tidy' });
    expect(second!.evidence[0]).toMatch(
      /^coverage: Ochiai 0\.577 at line \d \(run by 1 of 1 failing and 2 of 2 passing/,
    );
  }, 120_000);
});
