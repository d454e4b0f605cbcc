import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { runnerDoctorLines } from '../../src/commands/doctor.js';
import { resolveRunner } from '../../src/engine/runners/index.js';
import { counts, missingTool, removeFixtures } from './helpers/fixtures.js';
import { assemble } from './helpers/wrapped-fixtures.js';

afterAll(removeFixtures);

const noMake = missingTool(['make', ['--version']]);

describe('a test runner under a task or monorepo runner', () => {
  it('runs `npm test --workspaces` as written and reads each package runner’s own report, tests carrying their package', async () => {
    const dir = assemble('npm-workspaces');
    // A pretest runs before the command, without fixcycle's preload (whose file is written for the command).
    writeFileSync(
      join(dir, 'package.json'),
      JSON.stringify({
        name: 'npm-workspaces',
        private: true,
        workspaces: ['packages/*'],
        scripts: { pretest: 'node --version', test: 'npm test --workspaces' },
      }),
    );
    const runner = await resolveRunner(dir, {});
    expect(runner.describe().full).toEqual(['npm', 'test', '--workspaces']);
    expect(runner.describe().setup).toEqual([['node', '--version']]);
    expect(runner.detectedFrom).toContain('npm test --workspaces');
    expect((await runnerDoctorLines(dir, {})).join('\n')).toMatch(
      /subset: +per package: .*\(packages\/alpha, packages\/beta\)/,
    );
    const run = await runner.run({ cwd: dir, scope: 'full', timeoutMs: 120_000 });
    // mocha in alpha: 1 passing, 2 failing, 1 pending; jest in beta: 3 passed, 1 skipped, 1 todo.
    expect(counts(run.result)).toEqual({ passed: 4, failed: 2, skipped: 3, errors: 0 });
    expect(run.result.tests.find((t) => t.status === 'failed')).toMatchObject({
      id: 'packages/alpha/test/math.spec.js::math > multiplies',
      package: 'packages/alpha',
    });
    expect(new Set(run.result.tests.map((t) => t.package))).toEqual(new Set(['packages/alpha', 'packages/beta']));
    // npm runs every workspace whatever fails: nothing is left unrun.
    expect(run.result.stopped).toBeUndefined();
    expect(run.parts).toMatchObject([{ command: ['node', '--version'], kind: 'setup', exitCode: 0, failed: false }]);
  }, 120_000);

  it("runs an affected run in the one package it concerns, with that package's own runner and the same test ids", async () => {
    const dir = assemble('npm-workspaces');
    const runner = await resolveRunner(dir, {});
    const failing = 'packages/alpha/test/math.spec.js::math > multiplies';
    const alpha = await runner.run({
      cwd: dir,
      scope: 'affected',
      changedFiles: ['packages/alpha/math.js'],
      lastFailures: [{ id: failing, file: 'packages/alpha/test/math.spec.js' }],
      timeoutMs: 120_000,
    });
    expect(alpha.selection?.files).toEqual(['packages/alpha/test/math.spec.js']);
    expect(alpha.command[0]).toBe('mocha');
    expect(counts(alpha.result)).toEqual({ passed: 1, failed: 2, skipped: 1, errors: 0 });
    expect(alpha.result.tests.find((t) => t.id === failing)).toMatchObject({
      status: 'failed',
      package: 'packages/alpha',
    });
    const beta = await runner.run({
      cwd: dir,
      scope: 'affected',
      changedFiles: ['packages/beta/math.js'],
      timeoutMs: 120_000,
    });
    expect(beta.command[0]).toBe('jest');
    expect(beta.result.tests.map((t) => t.id)).toContain('packages/beta/math.test.js::math > adds');
  }, 120_000);

  it.skipIf(noMake)(
    `runs \`make test\` as written, so mocha reads the config the Makefile names${noMake ? ` (${noMake})` : ''}`,
    async () => {
      const dir = assemble('make-mocha');
      const runner = await resolveRunner(dir, {});
      expect(runner.name).toBe('mocha');
      expect(runner.describe().full).toEqual(['make', 'test']);
      const run = await runner.run({ cwd: dir, scope: 'full', timeoutMs: 120_000 });
      expect(counts(run.result)).toEqual({ passed: 1, failed: 2, skipped: 1, errors: 0 });
      expect(run.result.tests[0]!.id).toBe('spec/math.spec.js::math > adds');
      expect(run.result.tests[0]!.package).toBeUndefined();
    },
    120_000,
  );

  it.skipIf(noMake)(
    `counts the tests \`make test\` ran when a later line of its recipe cannot run here (a browser step that finds no program): the first run stops naming it, a later run keeps the tests and names the step${noMake ? ` (${noMake})` : ''}`,
    async () => {
      const dir = assemble('make-mocha');
      rmSync(join(dir, 'spec', 'math.spec.js'));
      writeFileSync(
        join(dir, 'spec', 'ok.spec.js'),
        "const assert = require('node:assert');\nconst { add } = require('../math.js');\ndescribe('math', () => { it('adds', () => assert.strictEqual(add(1, 2), 3)); });\n",
      );
      // mocha, then a browser run, in one recipe: make runs the second line only when the first passed, and
      // fixcycle cannot run one line without the other (a goal that only runs other targets is split: make-parts.test.ts).
      writeFileSync(
        join(dir, 'Makefile'),
        'test:\n\t./node_modules/.bin/mocha --config .config/mocha.json\n\t@cd . && fixcycle-no-such-browser --headless spec\n',
      );
      const runner = await resolveRunner(dir, {});
      expect(runner.describe().full).toEqual(['make', 'test']);
      const first = await runner.run({ cwd: dir, scope: 'full', timeoutMs: 120_000, probeParts: true });
      expect(first.noTestRan?.cause).toBe('cannot run here');
      expect(first.noTestRan?.message).toMatch(
        /^the test command's part `make test` \(a step inside it, after its tests passed\) cannot run on this machine: .* needs a program/,
      );
      expect(first.noTestRan?.message).toMatch(/fixcycle-no-such-browser: not found/);
      const later = await runner.run({ cwd: dir, scope: 'full', timeoutMs: 120_000 });
      expect(later.noTestRan).toBeUndefined();
      expect(counts(later.result)).toEqual({ passed: 1, failed: 0, skipped: 0, errors: 0 });
      expect(later.partsNotRun).toEqual([
        expect.objectContaining({ name: 'make test', command: ['make', 'test'], needs: 'a program', inside: true }),
      ]);
    },
    120_000,
  );

  it('names the runner under hereby, lerna, pnpm -r and turbo', async () => {
    const dir = assemble('npm-workspaces');
    // Resolving checks that the tool is installed; these runs never start it.
    const bin = join(dir, 'tools');
    mkdirSync(bin);
    for (const tool of ['lerna', 'pnpm', 'turbo', 'hereby'])
      writeFileSync(join(bin, tool), '#!/bin/sh\nexit 1\n', { mode: 0o755 });
    const path = process.env.PATH;
    process.env.PATH = `${bin}:${path}`;
    onTestFinished(() => {
      process.env.PATH = path;
    });
    const write = (file: string, json: object): void => writeFileSync(join(dir, file), JSON.stringify(json));
    write('package.json', {
      name: 'r',
      private: true,
      workspaces: ['packages/*'],
      scripts: { test: 'lerna run test' },
    });
    const lerna = await resolveRunner(dir, {});
    expect(lerna.name).toBe('mocha');
    expect(lerna.describe().full).toEqual(['lerna', 'run', 'test']);
    expect(lerna.detectedFrom).toContain('lerna run test');
    write('package.json', { name: 'r', private: true, scripts: { test: 'pnpm -r test' } });
    writeFileSync(join(dir, 'pnpm-workspace.yaml'), "packages:\n  - 'packages/*'\n");
    expect((await resolveRunner(dir, {})).describe().full).toEqual(['pnpm', '-r', 'test']);
    write('package.json', {
      name: 'r',
      private: true,
      workspaces: ['packages/*'],
      scripts: { test: 'turbo run test' },
    });
    expect((await resolveRunner(dir, {})).describe().full).toEqual(['turbo', 'run', 'test']);
    mkdirSync(join(dir, '.config'));
    writeFileSync(join(dir, '.config', 'mocha.fast.json'), '{}');
    write('package.json', {
      name: 'r',
      private: true,
      scripts: { test: 'hereby test', build: 'hereby build' },
      devDependencies: { mocha: '11' },
    });
    const hereby = await resolveRunner(dir, {});
    expect(hereby.name).toBe('mocha');
    expect(hereby.describe().full).toEqual(['hereby', 'test']);
  });

  it('treats a task run before the runner as a build step (`make build && mocha`)', async () => {
    const dir = assemble('make-mocha');
    writeFileSync(
      join(dir, 'package.json'),
      JSON.stringify({ name: 'm', scripts: { test: 'make build && mocha spec' } }),
    );
    const runner = await resolveRunner(dir, {});
    expect(runner.describe().full.slice(0, 2)).toEqual(['mocha', 'spec']);
    expect(runner.describe().setup).toEqual([['make', 'build']]);
  });
});
