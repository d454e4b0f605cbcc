// `make test` whose target only runs other targets (chai's `test: test-node test-chrome`, issue 29 point 7): real
// make says what each runs, real mocha runs the tests, and a target that cannot run here is a part like any other.
import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveRunner } from '../../src/engine/runners/index.js';
import { readMakeRules } from '../../src/engine/runners/wrapped/make-database.js';
import { counts, missingTool, removeFixtures } from './helpers/fixtures.js';
import { assemble } from './helpers/wrapped-fixtures.js';

afterAll(removeFixtures);

const noMake = missingTool(['make', ['--version']]);
const why = noMake ? ` (${noMake})` : '';

// As chai's: a build first, mocha through a variable (only make's dry run says what it is), then a browser run.
const SPLIT = [
  'MOCHA = ./node_modules/.bin/mocha',
  'test: build test-node test-browser',
  'build:',
  '\t@echo built',
  'test-node:',
  '\t@echo "==> node"',
  '\t$(MOCHA) \\',
  '\t\t--config .config/mocha.json',
  'test-browser: build',
  '\t@fixcycle-no-such-browser --headless spec',
  '.PHONY: test build test-node test-browser',
  '',
].join('\n');

function project(makefile: string, passing = false): string {
  const dir = assemble('make-mocha');
  writeFileSync(join(dir, 'Makefile'), makefile);
  if (passing) {
    rmSync(join(dir, 'spec', 'math.spec.js'));
    writeFileSync(
      join(dir, 'spec', 'ok.spec.js'),
      "const assert = require('node:assert');\nconst { add } = require('../math.js');\ndescribe('math', () => { it('adds', () => assert.strictEqual(add(1, 2), 3)); });\n",
    );
  }
  return dir;
}

describe.skipIf(noMake)('make test whose target runs other targets', () => {
  it(`runs each target as a part, the tests' part found by make's own dry run${why}`, async () => {
    const runner = await resolveRunner(project(SPLIT), {});
    expect(runner.name).toBe('mocha');
    expect(runner.describe()).toMatchObject({
      full: ['make', 'test-node'],
      setup: [['make', 'build']],
      after: [['make', 'test-browser']],
    });
  });

  it(`in a broken project, leaves the target that cannot run here out and counts mocha's tests${why}`, async () => {
    const dir = project(SPLIT);
    const runner = await resolveRunner(dir, {});
    const first = await runner.run({ cwd: dir, scope: 'full', timeoutMs: 120_000, probeParts: true });
    // mocha-failing's spec: 1 passing, 2 failing, 1 pending; make would not run the browser target after them,
    // the first run tries it anyway to learn it cannot run here.
    expect(first.noTestRan).toBeUndefined();
    expect(counts(first.result)).toEqual({ passed: 1, failed: 2, skipped: 1, errors: 0 });
    expect(first.partsNotRun).toEqual([
      expect.objectContaining({ name: 'test-browser', command: ['make', 'test-browser'], needs: 'a program' }),
    ]);
    expect(first.partsNotRun![0]!.inside).toBeUndefined();
    expect(first.partsNotRun![0]!.message).toMatch(/"skipParts": \["test-browser"\]/);
    const later = await runner.withoutParts(['test-browser']).run({ cwd: dir, scope: 'full', timeoutMs: 120_000 });
    expect(counts(later.result)).toEqual({ passed: 1, failed: 2, skipped: 1, errors: 0 });
    expect(later.parts?.map((part) => part.command)).toEqual([['make', 'build']]);
    expect(later.partsNotRun).toBeUndefined();
  }, 120_000);

  it(`stops an unbroken project naming the target, its own words and how to skip it; skipParts leaves it out${why}`, async () => {
    const dir = project(SPLIT, true);
    const first = await (await resolveRunner(dir, {})).run({ cwd: dir, scope: 'full', timeoutMs: 120_000 });
    expect(first.noTestRan?.cause).toBe('cannot run here');
    expect(first.noTestRan?.message).toMatch(
      /^the test command's part `make test-browser` \(run after the tests\) cannot run on this machine: .*needs a program.*"skipParts": \["test-browser"\]/,
    );
    expect(first.noTestRan?.message).toMatch(
      /its own words:\n {2}built\n {2}make: fixcycle-no-such-browser: No such file or directory\n {2}make: \*\*\* \[Makefile:10: test-browser\] Error 127/,
    );
    const skipping = await resolveRunner(dir, { skipParts: ['test-browser'] });
    expect(skipping.describe().after).toEqual([]);
    const run = await skipping.run({ cwd: dir, scope: 'full', timeoutMs: 120_000 });
    expect(run.noTestRan).toBeUndefined();
    expect(counts(run.result)).toEqual({ passed: 1, failed: 0, skipped: 0, errors: 0 });
  }, 120_000);

  it(`runs make test whole when make does not say its target only runs other targets${why}`, async () => {
    const whole = async (makefile: string, script = 'make test'): Promise<string[]> => {
      const dir = project(makefile);
      writeFileSync(
        join(dir, 'package.json'),
        JSON.stringify({ name: 'm', scripts: { test: script }, devDependencies: { mocha: '11' } }),
      );
      return (await resolveRunner(dir, {})).describe().full;
    };
    const mocha = '\t./node_modules/.bin/mocha --config .config/mocha.json\n';
    // The goal has a recipe of its own, after its prerequisites.
    expect(await whole(`test: lint\n${mocha}lint:\n\t@echo lint\n`)).toEqual(['make', 'test']);
    // One target, and a file that is only a prerequisite.
    expect(await whole(`test: test-node Makefile\ntest-node:\n${mocha}`)).toEqual(['make', 'test']);
    // Two targets both run mocha: the second's tests would run outside fixcycle's reporter.
    expect(await whole(`test: a b\na:\n${mocha}b:\n${mocha}`)).toEqual(['make', 'test']);
    // -k goes on after a failing target, which parts joined by && would not.
    expect(await whole(SPLIT, 'make -k test')).toEqual(['make', '-k', 'test']);
    // Options kept for each part.
    expect(await whole(SPLIT, 'make -s test REPORTER=spec')).toEqual(['make', '-s', 'REPORTER=spec', 'test-node']);
  });
});

describe.skipIf(noMake)("make's database", () => {
  it(`reads each target's prerequisites and recipe from make -p, leaving out what is not a target${why}`, () => {
    const dir = project(
      'X := 1\ntest: lint unit README | dirs\nunit: X = 2\nunit: build\n\t@echo unit $(X)\nlint::\n\techo lint\nbuild:\n\techo build\ndirs:\n\tmkdir -p d\n.PHONY: test unit lint\n',
    );
    writeFileSync(join(dir, 'README'), '');
    const database = spawnSync('make', ['-npq', '.DEFAULT'], { cwd: dir, encoding: 'utf8' }).stdout;
    const rules = readMakeRules(database);
    expect(rules.get('test')).toEqual({
      prerequisites: ['lint', 'unit', 'README'],
      orderOnly: ['dirs'],
      recipe: false,
      doubleColon: false,
    });
    // The target-specific variable is not its rule.
    expect(rules.get('unit')).toEqual({ prerequisites: ['build'], orderOnly: [], recipe: true, doubleColon: false });
    expect(rules.get('lint')?.doubleColon).toBe(true);
    // A file that is only a prerequisite, and make's built-in suffix rules, are not targets.
    expect(rules.has('README')).toBe(false);
    expect(rules.has('.c.o')).toBe(false);
  });
});
