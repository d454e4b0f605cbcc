import { afterAll, describe, expect, it } from 'vitest';
import { makeRepo, removeRepos } from '../helpers/repo.js';
import { resolveRunner } from '../../src/engine/runners/index.js';
import { localize } from '../../src/engine/localize/index.js';
import { failuresOf } from './failures-of.js';

afterAll(removeRepos);

// A bug that was always there: no green commit, no change to point at. The buggy `tax` is not first in its file;
// the one-line `round` before it is run by the failing test alone too, and is smaller.
const cart = {
  'package.json': JSON.stringify({ name: 'cart', type: 'module', scripts: { test: 'node --test' } }),
  'src/cart.js': [
    'export function subtotal(items) {', //   1
    '  let sum = 0;', //                       2
    '  for (const i of items) sum += i.price * i.qty;', // 3
    '  return sum;', //                        4
    '}', //                                    5
    'export function format(n) {', //          6
    '  return n.toFixed(2);', //               7
    '}', //                                    8
    'export const round = (n) => Math.round(n * 100) / 100;', // 9
    'export function tax(amount) {', //        10
    '  const rate = 0.2;', //                  11
    '  return amount * rate;', //              12
    '}', //                                    13
    '',
  ].join('\n'),
  'test/cart.test.js': [
    'import test from "node:test";',
    'import assert from "node:assert";',
    'import { subtotal, format, round, tax } from "../src/cart.js";',
    'const items = [{ price: 25, qty: 2 }];',
    'test("subtotal adds prices", () => assert.equal(subtotal(items), 50));',
    'test("format keeps two decimals", () => assert.equal(format(subtotal(items)), "50.00"));',
    'test("tax is a tenth", () => {',
    '  const due = round(tax(subtotal(items)));',
    '  assert.equal(format(due), "5.00");',
    '});',
    '',
  ].join('\n'),
};

describe('localization with the change unknown, on a real node:test project', () => {
  it('ranks the buggy function alone at the top: the failing test apart from its passing neighbours, then its name', async () => {
    const repo = makeRepo(null, cart);
    const runner = await resolveRunner(repo, {});
    const run = await runner.run({ cwd: repo, scope: 'full', timeoutMs: 60_000 });
    const failures = failuresOf(run.result.tests);
    expect(failures.map((f) => f.name)).toEqual(['tax is a tenth']);

    const found = await localize({ root: repo, runner, failures, timeoutMs: 60_000, changeBase: null });
    expect(found.granularity).toBe('split');
    const [first, second] = found.suspects;
    expect(first).toMatchObject({ file: 'src/cart.js', function: 'tax', startLine: 10, endLine: 13 });
    // Alone at the top: a tie for first would be luck of the order.
    expect(first!.score).toBeGreaterThan(second!.score);
    expect(second!.function).toBe('round');
    expect(first!.evidence.join('\n')).toMatch(/Ochiai 1 at line \d+ \(run by the failing tests, by no passing test/);
    expect(first!.evidence.join('\n')).toMatch(/name: 1 of 1 failing test name\(s\) say tax/);
    // subtotal and format are run by the passing tests of the same file as well: below both.
    const ranks = found.suspects.map((s) => s.function);
    expect(ranks.indexOf('subtotal')).toBeGreaterThan(1);
    expect(ranks.indexOf('format')).toBeGreaterThan(1);
  }, 120_000);

  it('an error that ended the run gets suspects from its stack, with no failing test', async () => {
    const repo = makeRepo(null, {
      'package.json': JSON.stringify({ name: 'conf', type: 'module' }),
      'src/conf.js': [
        'export function defaults() {',
        '  return { depth: 1 };',
        '}',
        'export function load(text) {',
        '  return { ...defaults(), ...JSON.parse(text) };',
        '}',
        '',
      ].join('\n'),
    });
    const runner = await resolveRunner(repo, { testCmd: 'node --test' });
    const found = await localize({
      root: repo,
      runner,
      failures: [],
      errors: [
        {
          message: `SyntaxError: Unexpected token b in JSON at position 0\n    at JSON.parse (<anonymous>)\n    at load (${repo}/src/conf.js:5:33)\n    at file://${repo}/test/conf.test.js:3:1`,
          file: 'test/conf.test.js',
        },
      ],
      timeoutMs: 60_000,
      noCoverage: true,
      changeBase: null,
    });
    expect(found.suspects[0]).toMatchObject({ file: 'src/conf.js', function: 'load' });
    expect(found.suspects[0]!.evidence.join('\n')).toMatch(/stack: line 5 .*innermost project frame/);
  }, 60_000);
});
