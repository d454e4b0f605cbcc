import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeRepo, removeRepos, ROOT } from '../helpers/repo.js';
import { resolveRunner } from '../../src/engine/runners/index.js';
import { localize } from '../../src/engine/localize/index.js';
import { tscOutputs } from '../../src/engine/localize/built-sources.js';
import { failuresOf } from './failures-of.js';

afterAll(removeRepos);

// As base64url ships it: the tests load tsc's `dist/price.js`, built from `src/price.ts` without a source map.
// The buggy `tax` is what the failing test alone runs; the suspect a user can edit is its source, not the build.
const shop = {
  'package.json': JSON.stringify({ name: 'shop', scripts: { test: 'node --test' } }),
  'tsconfig.json': JSON.stringify({
    compilerOptions: { module: 'commonjs', target: 'es2019', outDir: './dist', strict: true },
    files: ['./src/price.ts'],
  }),
  'src/price.ts': [
    '// Prices of a shop.', //                                         1
    'export interface Item {', //                                      2
    '  price: number;', //                                             3
    '  qty: number;', //                                               4
    '}', //                                                            5
    '', //                                                             6
    'export function total(items: Item[]): number {', //               7
    '  let sum = 0;', //                                               8
    '  for (const i of items) sum += i.price * i.qty;', //             9
    '  return sum;', //                                                10
    '}', //                                                            11
    '', //                                                             12
    'export function tax(amount: number): number {', //                13
    '  const rate: number = 0.2;', //                                  14
    '  return amount * rate;', //                                      15
    '}', //                                                            16
    '',
  ].join('\n'),
  'test/price.test.js': [
    "const test = require('node:test');",
    "const assert = require('node:assert');",
    "const { total, tax } = require('../dist/price.js');",
    'const items = [{ price: 25, qty: 2 }];',
    "test('total adds prices', () => assert.equal(total(items), 50));",
    "test('tax is a tenth', () => assert.equal(tax(total(items)), 5));",
    '',
  ].join('\n'),
};

describe('built output without a source map, read back in its TypeScript source', () => {
  it('maps tsc’s outDir back to the source tsconfig.json builds it from', async () => {
    const repo = makeRepo(null, shop);
    expect(await tscOutputs(repo)).toEqual(new Map([['dist/price.js', 'src/price.ts']]));
  });

  it('ranks the source’s function first, with the built line it was run at in its evidence (node:test)', async () => {
    const repo = makeRepo(null, shop);
    execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', repo]);
    const runner = await resolveRunner(repo, {});
    const run = await runner.run({ cwd: repo, scope: 'full', timeoutMs: 60_000 });
    const failures = failuresOf(run.result.tests);
    expect(failures.map((f) => f.name)).toEqual(['tax is a tenth']);

    const found = await localize({ root: repo, runner, failures, timeoutMs: 60_000, changeBase: null });
    const [first, second] = found.suspects;
    expect(first).toMatchObject({ file: 'src/price.ts', function: 'tax', startLine: 13, endLine: 16 });
    expect(first!.score).toBeGreaterThan(second!.score);
    expect(first!.evidence.join('\n')).toMatch(/coverage: Ochiai 1 at line 1[45] /);
    expect(first!.evidence.join('\n')).toMatch(
      /built: the tests ran dist\/price\.js \(line \d+\), which tsc builds from this file without a source map/,
    );
    expect(found.suspects.some((s) => s.file.startsWith('dist/'))).toBe(false);
  }, 120_000);
});
