// The shop project of the real-terminal tests: a real `node --test` suite and a scripted agent speaking
// the agent command protocol, which reaches a partial success (95%, one low failure) in one iteration.
// 16 tests that pass, 3 that fail because total() adds 1 (medium criticality) and 1 cosmetic test
// (low by the config): 80% at first, 95% with only a low failure once the agent fixes total().
export const SHOP =
  'export function total(items) {\n  return items.reduce((sum, i) => sum + i.price * i.qty, 0) + 1;\n}\n';
export const TESTS = `import { test } from 'node:test';
import assert from 'node:assert/strict';
import { total } from '../src/shop.js';
for (let i = 0; i < 16; i++) test('counts item ' + i, () => assert.equal([1, 2, 3].length, 3));
test('total of one item', () => assert.equal(total([{ price: 5, qty: 1 }]), 5));
test('total of two items', () => assert.equal(total([{ price: 5, qty: 1 }, { price: 2, qty: 3 }]), 11));
test('total of nothing', () => assert.equal(total([]), 0));
test('cosmetic: greeting is title case', () => assert.equal('hello'.toUpperCase(), 'Hello'));
`;
export const AGENT = `import { readFileSync, writeFileSync, appendFileSync } from 'node:fs';
let prompt = '';
for await (const chunk of process.stdin) prompt += chunk;
const role = process.env.FIXCYCLE_ROLE;
appendFileSync(process.argv[2], role + ' ' + process.env.FIXCYCLE_ITERATION + '\\n');
if (role === 'analyze') {
  process.stdout.write(JSON.stringify({ root_causes: ['total() adds 1 to every sum'], modification_points: ['src/shop.js:total:2'], affected_tests: ['total of one item'], confidence_score: 0.9, approach: 'drop the + 1' }));
} else {
  writeFileSync('src/shop.js', readFileSync('src/shop.js', 'utf8').replace(', 0) + 1;', ', 0);'));
}
`;

/** The files of the shop project, for tempRepo().commit. */
export const SHOP_FILES = {
  'package.json': '{ "name": "shop", "type": "module", "private": true }\n',
  'src/shop.js': SHOP,
  'test/shop.test.js': TESTS,
  'fixcycle.config.json': JSON.stringify({ criticality: [{ match: 'cosmetic', level: 'low' }] }),
};
