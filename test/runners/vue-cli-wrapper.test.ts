import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveRunner } from '../../src/engine/runners/index.js';
import { installFixture, REMOVE_TIMEOUT_MS } from './helpers/installed-fixture.js';
import { counts } from './helpers/fixtures.js';

// `vue-cli-service test:unit` (@vue/cli-plugin-unit-jest 5.0.9) runs jest in its own process, in Vue CLI's "test"
// mode, which loads .env.test (a plain jest on the same project fails the test reading it). The project's script
// is `test:unit`, as Vue CLI scaffolds it. Installed from the registry into a temp copy of the fixture.
let dir = '';
let installError: string | null = null;

beforeAll(() => {
  ({ dir, installError } = installFixture('vue-cli-wrapper', '@vue/cli-service'));
}, 450_000);

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
}, REMOVE_TIMEOUT_MS);

describe('vue-cli-service test:unit (the real wrapper)', () => {
  it('runs as written, in its test mode, and counts what its jest counts', async (context) => {
    if (installError) context.skip(installError);
    const own = spawnSync('npx', ['vue-cli-service', 'test:unit', '--json', '--outputFile=own.json'], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 200_000,
    });
    expect(own.status).toBe(0);
    const report = JSON.parse(readFileSync(join(dir, 'own.json'), 'utf8')) as Record<
      'numPassedTests' | 'numFailedTests' | 'numPendingTests' | 'numTodoTests',
      number
    >;
    const runner = await resolveRunner(dir, { testCmd: 'npm run test:unit' });
    expect(runner.name).toBe('jest');
    const run = await runner.run({ cwd: dir, scope: 'full', timeoutMs: 200_000 });
    expect(run.command.slice(0, 2)).toEqual(['vue-cli-service', 'test:unit']);
    expect(counts(run.result)).toEqual({
      passed: report.numPassedTests,
      failed: report.numFailedTests,
      skipped: report.numPendingTests + report.numTodoTests,
      errors: 0,
    });
    expect(counts(run.result)).toEqual({ passed: 3, failed: 0, skipped: 1, errors: 0 });
    const fromEnv = run.result.tests.find((t) => t.name.endsWith('reads the variables of the test mode'));
    expect(fromEnv?.status).toBe('passed');
  }, 300_000);

  it('fails the tests a bug breaks, through the wrapper', async (context) => {
    if (installError) context.skip(installError);
    const file = join(dir, 'src/sum.js');
    const source = readFileSync(file, 'utf8');
    writeFileSync(file, source.replace('a + b', 'a - b'));
    try {
      const runner = await resolveRunner(dir, { testCmd: 'npm run test:unit' });
      const run = await runner.run({ cwd: dir, scope: 'full', timeoutMs: 200_000 });
      expect(counts(run.result)).toEqual({ passed: 2, failed: 1, skipped: 1, errors: 0 });
      expect(run.result.tests.find((t) => t.status === 'failed')?.name).toMatch(/adds two numbers$/);
    } finally {
      writeFileSync(file, source);
    }
  }, 300_000);
});
