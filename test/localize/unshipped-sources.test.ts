import { execFileSync } from 'node:child_process';
import { rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeRepo, removeRepos, ROOT } from '../helpers/repo.js';
import { resolveRunner } from '../../src/engine/runners/index.js';
import { localize } from '../../src/engine/localize/index.js';
import { failuresOf } from './failures-of.js';

afterAll(removeRepos);

// As @kwsites/file-exists ships it: tsc's `dist/` with its `.js.map` files, which lead to `src/*.ts`, a folder
// the package does not ship. The runner follows the maps, so the tests' lines come back in files no one can
// open; the built file they map from is what ran.
const shop = (test: string) => ({
  'package.json': JSON.stringify({ name: 'shop', scripts: { test } }),
  'tsconfig.json': JSON.stringify({
    compilerOptions: {
      module: 'commonjs',
      target: 'es2019',
      outDir: './dist',
      sourceMap: true,
      strict: true,
      types: [],
    },
    include: ['src', 'test'],
  }),
  'src/price.ts': [
    'export interface Item {',
    '  price: number;',
    '  qty: number;',
    '}',
    '',
    'export function total(items: Item[]): number {',
    '  let sum = 0;',
    '  for (const i of items) sum += i.price * i.qty;',
    '  return sum;',
    '}',
    '',
    'export function tax(amount: number): number {',
    '  const rate: number = 0.2;',
    '  return amount * rate;',
    '}',
    '',
  ].join('\n'),
  'test/price.test.ts': [
    "import { total, tax } from '../src/price';",
    'declare const test: (name: string, body: () => void) => void;',
    'declare const expect: (value: unknown) => { toBe(expected: unknown): void };',
    'const items = [{ price: 25, qty: 2 }];',
    "test('total adds prices', () => expect(total(items)).toBe(50));",
    "test('tax is a tenth', () => expect(tax(total(items))).toBe(5));",
    '',
  ].join('\n'),
});

describe('a shipped source map leading to a source the project does not ship', () => {
  it('ranks the built function the map comes from (jest, whose transform follows the map)', async () => {
    const repo = makeRepo(null, shop('jest dist/test'));
    symlinkSync(join(ROOT, 'node_modules'), join(repo, 'node_modules'));
    execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', repo]);
    rmSync(join(repo, 'src'), { recursive: true });
    rmSync(join(repo, 'test'), { recursive: true });
    rmSync(join(repo, 'tsconfig.json'));
    execFileSync('git', ['add', '-A'], { cwd: repo });
    execFileSync('git', ['commit', '-qm', 'ship dist only'], { cwd: repo });
    const runner = await resolveRunner(repo, {});
    expect(runner.name).toBe('jest');
    const run = await runner.run({ cwd: repo, scope: 'full', timeoutMs: 120_000 });
    const failures = failuresOf(run.result.tests);
    expect(failures.map((f) => f.name)).toEqual(['tax is a tenth']);

    const found = await localize({ root: repo, runner, failures, timeoutMs: 120_000, changeBase: null });
    // jest's unit per test: its transform's map, composed with the shipped one, is read through a stand-in.
    expect(found.granularity).toBe('test');
    const [first, second] = found.suspects;
    expect(first).toMatchObject({ file: 'dist/src/price.js', function: 'tax' });
    expect(first!.score).toBeGreaterThan(second!.score);
    expect(first!.evidence.join('\n')).toMatch(
      /built: the tests' coverage came back at src\/price\.ts line \d+ through dist\/src\/price\.js\.map, a source the project does not ship/,
    );
  }, 240_000);
});
