import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeRepo, removeRepos, ROOT } from '../helpers/repo.js';
import { resolveRunner } from '../../src/engine/runners/index.js';
import { localize } from '../../src/engine/localize/index.js';
import { failuresOf } from './failures-of.js';

afterAll(removeRepos);

// Two modules with a function of one name, as dequal ships `src/index.js` and a smaller `src/lite.js`. uvu runs
// every test file in one process, so its coverage is one unit: both `equivalent`s are "run by the failing tests".
// The failing test file loads `src/index.js` only; its call to `equivalent` is a call to that one, and the smaller
// namesake it never loads must not share the link (size would then put the namesake first).
const twins = {
  'package.json': JSON.stringify({ name: 'twins', scripts: { test: 'uvu test' } }),
  'src/index.js': [
    'function equivalent(a, b) {', //                                        1
    '  if (a === b) return true;', //                                    2
    '  if (typeof a !== "object" || typeof b !== "object") return false;', // 3
    '  const ka = Object.keys(a);', //                                   4
    '  const kb = Object.keys(b);', //                                   5
    '  if (ka.length !== kb.length) return true;', // the bug: true       6
    '  for (const k of ka) {', //                                        7
    '    if (!equivalent(a[k], b[k])) return false;', //                      8
    '  }', //                                                            9
    '  return true;', //                                                 10
    '}', //                                                              11
    'module.exports = { equivalent };', //                                    12
    '',
  ].join('\n'),
  'src/lite.js': [
    'function equivalent(a, b) {',
    '  return a === b || JSON.stringify(a) === JSON.stringify(b);',
    '}',
    'module.exports = { equivalent };',
    '',
  ].join('\n'),
  'test/index.js': [
    "const { test } = require('uvu');",
    "const assert = require('uvu/assert');",
    "const { equivalent } = require('../src');",
    "test('same objects', () => { assert.ok(equivalent({ a: 1 }, { a: 1 })); });",
    "test('objects of different sizes', () => {",
    '  const small = { a: 1 };',
    '  assert.not.ok(equivalent(small, { a: 1, b: 2 }));',
    '});',
    'test.run();',
    '',
  ].join('\n'),
  'test/lite.js': [
    "const { test } = require('uvu');",
    "const assert = require('uvu/assert');",
    "const { equivalent } = require('../src/lite');",
    "test('lite: same objects', () => { assert.ok(equivalent({ a: 1 }, { a: 1 })); });",
    'test.run();',
    '',
  ].join('\n'),
};

describe('a call in the failing test code links to the function of the module the test file loads', () => {
  it('ranks the loaded module’s function first, not its smaller namesake that only another test file loads (uvu, one unit)', async () => {
    const repo = makeRepo(null, twins);
    symlinkSync(join(ROOT, 'node_modules'), join(repo, 'node_modules'));
    const runner = await resolveRunner(repo, {});
    expect(runner.name).toBe('uvu');
    const run = await runner.run({ cwd: repo, scope: 'full', timeoutMs: 60_000 });
    const failures = failuresOf(run.result.tests);
    expect(failures.map((f) => f.name)).toEqual(['objects of different sizes']);

    const found = await localize({ root: repo, runner, failures, timeoutMs: 60_000, changeBase: null });
    expect(found.granularity).toBe('run');
    const [first, second] = found.suspects;
    expect(first).toMatchObject({ file: 'src/index.js', function: 'equivalent' });
    expect(first!.score).toBeGreaterThan(second!.score);
    expect(first!.evidence.join('\n')).toMatch(/name: the failing tests call equivalent/);
    const lite = found.suspects.find((s) => s.file === 'src/lite.js');
    expect(lite?.evidence.join('\n')).toMatch(/coverage: run by the failing tests/);
    expect(lite?.evidence.join('\n')).not.toMatch(/call equivalent/);
  }, 120_000);
});
