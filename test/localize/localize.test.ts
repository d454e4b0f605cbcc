import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { git, makeRepo, removeRepos } from '../helpers/repo.js';
import { resolveRunner } from '../../src/engine/runners/index.js';
import { localize, recordGreenTests } from '../../src/engine/localize/index.js';
import { failuresOf } from './failures-of.js';

afterAll(removeRepos);

const project = {
  'package.json': JSON.stringify({ name: 'shop', type: 'module', scripts: { test: 'node --test' } }),
  'src/price.js': [
    'export function total(items) {',
    '  let sum = 0;',
    '  for (const i of items) sum += i.price * i.qty;',
    '  return sum;',
    '}',
    '',
    'export function discount(sum, pct) {',
    '  return sum - (sum * pct) / 100;',
    '}',
    '',
  ].join('\n'),
  'src/label.js': [
    'import { total } from "./price.js";',
    'export function label(items) {',
    '  return `${items.length} items: ${total(items)}`;',
    '}',
    '',
  ].join('\n'),
  'test/price.test.js': [
    'import test from "node:test";',
    'import assert from "node:assert";',
    'import { total, discount } from "../src/price.js";',
    'test("total", () => assert.equal(total([{ price: 2, qty: 3 }]), 6));',
    'test("discount", () => assert.equal(discount(200, 10), 180));',
    '',
  ].join('\n'),
  'test/label.test.js': [
    'import test from "node:test";',
    'import assert from "node:assert";',
    'import { label } from "../src/label.js";',
    'test("label", () => assert.equal(label([{ price: 1, qty: 1 }]), "1 items: 1"));',
    '',
  ].join('\n'),
};

describe('localize on a real node:test project', () => {
  it('ranks the broken function first from the change since the green commit and per-file coverage spectra', async () => {
    const repo = makeRepo(null, project);
    const runner = await resolveRunner(repo, {});
    const green = await runner.run({ cwd: repo, scope: 'full', timeoutMs: 60_000 });
    expect(green.result.tests.every((t) => t.status === 'passed')).toBe(true);
    await recordGreenTests(
      repo,
      green.result.tests.map((t) => t.id),
    );
    const greenSha = git(repo, 'rev-parse', 'HEAD').trim();

    const file = join(repo, 'src/price.js');
    writeFileSync(file, readFileSync(file, 'utf8').replace('sum - (sum * pct) / 100', 'sum - (sum * pct) / 10'));
    git(repo, 'commit', '-qam', 'discount in tenths');
    const broken = await runner.run({ cwd: repo, scope: 'full', timeoutMs: 60_000 });
    const failures = failuresOf(broken.result.tests);
    expect(failures.map((f) => f.name)).toEqual(['discount']);

    const found = await localize({ root: repo, runner, failures, timeoutMs: 60_000 });
    expect(found.used).toEqual(expect.arrayContaining(['coverage', 'change']));
    expect(found.changeBase).toBe(greenSha);
    // node --test filters by name: the failing test apart from the passing tests of its file; one process per
    // test file: the passing label test is a unit of its own.
    expect(found.granularity).toBe('split');
    expect(found.suspects[0]).toMatchObject({ file: 'src/price.js', function: 'discount', startLine: 7, endLine: 9 });
    expect(found.suspects[0]!.lines[0]).toBe(8);
    expect(found.suspects[0]!.evidence.join('\n')).toMatch(/change: line 8 changed since/);
    // total() is run by the failing file and by the passing label test: less suspicious than discount().
    const totalFn = found.suspects.find((s) => s.function === 'total');
    expect(totalFn === undefined || totalFn.score < found.suspects[0]!.score).toBe(true);

    // The same commit again: the coverage comes from the cache.
    const again = await localize({ root: repo, runner, failures, timeoutMs: 60_000 });
    expect(again.cached).toBe(true);
    expect(again.suspects[0]!.function).toBe('discount');
    // A fix committed and rolled back by a revert commit: a new commit, the same tree, the cached coverage.
    writeFileSync(join(repo, 'src/label.js'), readFileSync(join(repo, 'src/label.js'), 'utf8') + '\n');
    git(repo, 'commit', '-qam', 'a fix that regressed');
    git(repo, 'revert', '--no-edit', 'HEAD');
    const reverted = await localize({ root: repo, runner, failures, timeoutMs: 60_000 });
    expect(reverted.cached).toBe(true);

    // Without coverage and without a known change, the record says what was not used and why.
    const bare = await localize({
      root: repo,
      runner,
      failures,
      timeoutMs: 60_000,
      noCoverage: true,
      changeBase: null,
    });
    expect(bare.used).toEqual([]);
    expect(bare.notes.join('\n')).toMatch(/coverage: not measured/);
  }, 120_000);
});

describe("localization's coverage run", () => {
  it("runs the runner alone: the test command's build before it and the part after it ran with the loop's run", async () => {
    // `npm test`: the pretest build writes the module the tests load, `after.js` runs after the runner (`;`: even when it
    // fails); each logs itself.
    const log = (what: string) => `require("fs").appendFileSync("parts.log", "${what}\\n")`;
    const repo = makeRepo(null, {
      'package.json': JSON.stringify({
        name: 'built',
        scripts: { pretest: 'node build.js', test: 'node --test; node after.js' },
      }),
      'build.js': `${log('build')}; require("fs").copyFileSync("src/rate.js", "src/rate.built.js");\n`,
      'after.js': `${log('after')};\n`,
      '.gitignore': 'parts.log\nsrc/rate.built.js\n',
      'src/rate.js': ['exports.rate = function rate(n) {', '  return n * 3;', '};', ''].join('\n'),
      'test/rate.test.js': [
        'const test = require("node:test");',
        'const assert = require("node:assert");',
        'const { rate } = require("../src/rate.built.js");',
        'test("rate", () => assert.equal(rate(2), 4));',
        '',
      ].join('\n'),
    });
    const runner = await resolveRunner(repo, {});
    const run = await runner.run({ cwd: repo, scope: 'full', timeoutMs: 60_000 });
    const failures = failuresOf(run.result.tests);
    expect(failures.map((f) => f.name)).toEqual(['rate']);
    expect(readFileSync(join(repo, 'parts.log'), 'utf8')).toBe('build\nafter\n');

    const found = await localize({ root: repo, runner, failures, timeoutMs: 60_000, changeBase: null });
    expect(found.used).toContain('coverage');
    expect(found.suspects[0]).toMatchObject({ file: 'src/rate.built.js', function: 'rate' });
    // Neither the build nor the after part ran again.
    expect(readFileSync(join(repo, 'parts.log'), 'utf8')).toBe('build\nafter\n');
  }, 120_000);
});

describe('the green record across worktrees', () => {
  it("is one for the repository: a session's worktree reads what the user's tree recorded, and its own records outlive it", async () => {
    const repo = makeRepo(null, project);
    const runner = await resolveRunner(repo, {});
    const green = await runner.run({ cwd: repo, scope: 'full', timeoutMs: 60_000 });
    await recordGreenTests(
      repo,
      green.result.tests.map((t) => t.id),
    );
    const greenSha = git(repo, 'rev-parse', 'HEAD').trim();

    const tree = `${repo}-session`;
    git(repo, 'worktree', 'add', '-q', '-b', 'session', tree);
    const file = join(tree, 'src/price.js');
    writeFileSync(file, readFileSync(file, 'utf8').replace('sum - (sum * pct) / 100', 'sum - (sum * pct) / 10'));
    git(tree, 'commit', '-qam', 'discount in tenths');
    const broken = await runner.run({ cwd: tree, scope: 'full', timeoutMs: 60_000 });
    const failures = failuresOf(broken.result.tests);
    const found = await localize({ root: tree, runner, failures, timeoutMs: 60_000, noCoverage: true });
    expect(found.changeBase).toBe(greenSha);
    expect(found.suspects[0]).toMatchObject({ file: 'src/price.js', function: 'discount' });

    // Green again in the worktree, then the worktree goes: the user's tree knows the newer green commit.
    writeFileSync(file, readFileSync(file, 'utf8').replace('sum - (sum * pct) / 10', 'sum - (sum * pct) / 100'));
    git(tree, 'commit', '-qam', 'fixed');
    const fixed = await runner.run({ cwd: tree, scope: 'full', timeoutMs: 60_000 });
    await recordGreenTests(
      tree,
      fixed.result.tests.map((t) => t.id),
    );
    const fixedSha = git(tree, 'rev-parse', 'HEAD').trim();
    git(repo, 'worktree', 'remove', '--force', tree);
    git(repo, 'merge', '-q', '--ff-only', 'session');
    const record = JSON.parse(readFileSync(join(repo, '.git/fixcycle/green-commits.json'), 'utf8'));
    expect(Object.values(record)).toContain(fixedSha);
  }, 120_000);
});
