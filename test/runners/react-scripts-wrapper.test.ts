import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveRunner } from '../../src/engine/runners/index.js';
import { installFixture, REMOVE_TIMEOUT_MS } from './helpers/installed-fixture.js';
import { counts } from './helpers/fixtures.js';

// `react-scripts test` (5.0.1) runs jest in its own process with create-react-app's config (JSX through
// babel-preset-react-app, a jsdom environment), and starts watch mode off CI unless given --watchAll=false.
// Installed from the registry into a temp copy of the fixture; CI is unset so the watch default is the real one.
let dir = '';
let installError: string | null = null;
const ci = process.env.CI;

beforeAll(() => {
  delete process.env.CI;
  ({ dir, installError } = installFixture('react-scripts-wrapper', 'react-scripts'));
}, 450_000);

afterAll(() => {
  if (ci !== undefined) process.env.CI = ci;
  rmSync(dir, { recursive: true, force: true });
}, REMOVE_TIMEOUT_MS);

describe('react-scripts test (the real wrapper)', () => {
  it('runs as written, out of watch mode, and counts what its jest counts', async (context) => {
    if (installError) context.skip(installError);
    const own = spawnSync('npx', ['react-scripts', 'test', '--watchAll=false', '--json', '--outputFile=own.json'], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 200_000,
    });
    expect(own.status).toBe(0);
    const report = JSON.parse(readFileSync(join(dir, 'own.json'), 'utf8')) as Record<
      'numPassedTests' | 'numFailedTests' | 'numPendingTests' | 'numTodoTests',
      number
    >;
    const runner = await resolveRunner(dir, {});
    expect(runner.name).toBe('jest');
    const run = await runner.run({ cwd: dir, scope: 'full', timeoutMs: 200_000 });
    expect(run.command.slice(0, 3)).toEqual(['react-scripts', 'test', '--watchAll=false']);
    expect(counts(run.result)).toEqual({
      passed: report.numPassedTests,
      failed: report.numFailedTests,
      skipped: report.numPendingTests + report.numTodoTests,
      errors: 0,
    });
    expect(counts(run.result)).toEqual({ passed: 3, failed: 0, skipped: 1, errors: 0 });
  }, 300_000);

  it('fails the tests a bug breaks, through the wrapper', async (context) => {
    if (installError) context.skip(installError);
    const file = join(dir, 'src/Greeting.js');
    const source = readFileSync(file, 'utf8');
    writeFileSync(file, source.replace('toUpperCase', 'toLowerCase'));
    try {
      const runner = await resolveRunner(dir, {});
      const run = await runner.run({ cwd: dir, scope: 'full', timeoutMs: 200_000 });
      expect(counts(run.result)).toEqual({ passed: 2, failed: 1, skipped: 1, errors: 0 });
      expect(run.result.tests.find((t) => t.status === 'failed')?.name).toMatch(/shouts$/);
    } finally {
      writeFileSync(file, source);
    }
  }, 300_000);
});
