import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyseCommandLine, type RunnerCall } from '../../src/engine/runners/analyse-command.js';
import { buildCommands } from '../../src/engine/runners/commands/index.js';
import { resolveRunner } from '../../src/engine/runners/index.js';
import { readProject } from '../../src/engine/runners/project.js';
import { runnerDoctorLines } from '../../src/commands/doctor.js';
import { installFixture, REMOVE_TIMEOUT_MS } from './helpers/installed-fixture.js';
import { counts } from './helpers/fixtures.js';

// Wrapper scripts that call `require('jest').run(args)` in their own process (kcd-scripts, react-scripts,
// @vue/cli-plugin-unit-jest) forward the command's arguments to jest: fixcycle runs the wrapper as written and
// appends jest's report arguments, and the argument that keeps the wrapper out of watch mode.
const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })), REMOVE_TIMEOUT_MS);

function project(files: Record<string, string | object>): string {
  const dir = mkdtempSync(join(tmpdir(), 'fixcycle-jest-wrapper-'));
  dirs.push(dir);
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), typeof content === 'string' ? content : JSON.stringify(content));
  }
  return dir;
}

function callOf(test: string, devDependencies: Record<string, string> = {}): RunnerCall | { unknown: string } {
  const dir = project({ 'package.json': { name: 'p', scripts: { test }, devDependencies } });
  return analyseCommandLine('npm test', readProject(dir));
}

describe('wrapper scripts that run jest in their own process', () => {
  it.each<{ test: string; deps: Record<string, string>; launcher: string[] }>([
    { test: 'kcd-scripts test', deps: { 'kcd-scripts': '17' }, launcher: ['kcd-scripts', 'test', '--no-watch'] },
    {
      test: 'react-scripts test --env=jsdom',
      deps: { 'react-scripts': '5' },
      launcher: ['react-scripts', 'test', '--watchAll=false'],
    },
    {
      test: 'vue-cli-service test:unit',
      deps: { '@vue/cli-service': '5', '@vue/cli-plugin-unit-jest': '5' },
      launcher: ['vue-cli-service', 'test:unit'],
    },
  ])('runs `$test` as written, with jest report arguments it forwards', ({ test, deps, launcher }) => {
    const call = callOf(test, deps);
    if ('unknown' in call) throw new Error(call.unknown);
    expect(call).toMatchObject({ runner: 'jest', launcher });
    expect(call.wrapper).toMatch(/^\S+ \S+ -> jest in \S+ process/);
    const commands = buildCommands(call);
    const forwarded = test.split(' ').slice(2);
    expect(commands.full('/r').argv).toEqual([...launcher, ...forwarded, '--json', '--outputFile=/r/jest.json']);
    const subset = commands.subset('/r', { files: ['src/__tests__/a.js'], names: ['adds'] })!.argv;
    expect(subset.slice(0, launcher.length)).toEqual(launcher);
    expect(subset).toEqual(expect.arrayContaining(['-t', 'adds', '--runTestsByPath', 'src/__tests__/a.js']));
  });

  it('leaves other verbs, and vue-cli-service without the jest plugin, to the other rules', () => {
    expect(callOf('kcd-scripts lint', { 'kcd-scripts': '17' })).toHaveProperty('unknown');
    expect(callOf('vue-cli-service test:unit', { '@vue/cli-plugin-unit-mocha': '5' })).toHaveProperty('unknown');
  });
});

// The real kcd-scripts 17 from the registry, in a temp copy of the fixture. Its jest config (babel transform for
// the ES module syntax, __tests__/helpers ignored) is a check of its own: a plain jest fails on this project.
// CI is unset so the wrapper's watch default (on, off CI) is the real one.
let dir = '';
let installError: string | null = null;
const ci = process.env.CI;
afterAll(() => {
  if (ci !== undefined) process.env.CI = ci;
});

beforeAll(() => {
  delete process.env.CI;
  ({ dir, installError } = installFixture('kcd-scripts-wrapper', 'kcd-scripts'));
  dirs.push(dir);
}, 450_000);

describe('kcd-scripts test (the real wrapper)', () => {
  it("counts what kcd-scripts' jest counts, with the wrapper's config, and doctor names wrapper and runner", async (context) => {
    if (installError) context.skip(installError);
    const own = spawnSync('npx', ['kcd-scripts', 'test', '--no-watch', '--json', '--outputFile=own.json'], {
      cwd: dir,
      encoding: 'utf8',
    });
    expect(own.status).toBe(0);
    const report = JSON.parse(readFileSync(join(dir, 'own.json'), 'utf8')) as Record<string, number>;
    const runner = await resolveRunner(dir, {});
    expect(runner.name).toBe('jest');
    const run = await runner.run({ cwd: dir, scope: 'full', timeoutMs: 200_000 });
    expect(run.command.slice(0, 3)).toEqual(['kcd-scripts', 'test', '--no-watch']);
    expect(counts(run.result)).toEqual({
      passed: report.numPassedTests,
      failed: report.numFailedTests,
      skipped: report.numPendingTests,
      errors: 0,
    });
    expect(counts(run.result)).toEqual({ passed: 2, failed: 0, skipped: 1, errors: 0 });
    expect(run.result.tests.map((t) => t.file)).not.toContain('src/__tests__/helpers/pairs.js');
    const doctor = (await runnerDoctorLines(dir, {})).join('\n');
    expect(doctor).toContain('scripts.test in package.json ("kcd-scripts test")');
    expect(doctor).toMatch(/counts from: .*kcd-scripts test -> jest in kcd-scripts' process/);
  }, 300_000);

  it('finds a bug through the wrapper, and re-runs the failing test alone through it', async (context) => {
    if (installError) context.skip(installError);
    const file = join(dir, 'src/sum.js');
    const source = readFileSync(file, 'utf8');
    writeFileSync(file, source.replace('a + b', 'a - b'));
    try {
      const runner = await resolveRunner(dir, {});
      const full = await runner.run({ cwd: dir, scope: 'full', timeoutMs: 200_000 });
      expect(counts(full.result)).toEqual({ passed: 0, failed: 2, skipped: 1, errors: 0 });
      const failing = full.result.tests.find((t) => t.name.endsWith('adds two numbers'))!;
      const again = await runner.run({
        cwd: dir,
        scope: 'affected',
        changedFiles: ['src/sum.js'],
        lastFailures: [{ id: failing.id, file: failing.file! }],
        timeoutMs: 200_000,
      });
      expect(again.command.slice(0, 3)).toEqual(['kcd-scripts', 'test', '--no-watch']);
      expect(again.result.tests.find((t) => t.id === failing.id)?.status).toBe('failed');
    } finally {
      writeFileSync(file, source);
    }
  }, 300_000);
});
