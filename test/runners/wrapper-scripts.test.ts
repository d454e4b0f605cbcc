import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveRunner } from '../../src/engine/runners/index.js';
import { REPO_ROOT, counts } from './helpers/fixtures.js';

// `ts-scripts test` (@borderless/ts-scripts 0.15) runs prettier --check and tsc --noEmit, then spawns `vitest run`:
// fixcycle runs it as written, with vitest's report taken from inside, so the project's own checks still run.
// The wrapper is installed from the npm registry into a temp copy of the fixture (it is no devDependency here).
let dir = '';
let installError: string | null = null;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'fixcycle-ts-scripts-'));
  cpSync(join(REPO_ROOT, 'test/fixtures/projects/ts-scripts-wrapper'), dir, { recursive: true });
  const install = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts'], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 240_000,
  });
  if (install.status !== 0)
    installError = `npm install of @borderless/ts-scripts failed (${install.stderr.trim().split('\n').at(-1) ?? 'no output'})`;
}, 300_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a wrapper script (ts-scripts test)', () => {
  it('runs the script as written and reads the vitest run inside it', async (context) => {
    if (installError) context.skip(installError);
    const runner = await resolveRunner(dir, {});
    expect(runner.name).toBe('vitest');
    const run = await runner.run({ cwd: dir, scope: 'full', timeoutMs: 200_000 });
    expect(run.command).toEqual(['ts-scripts', 'test']);
    expect(counts(run.result)).toEqual({ passed: 2, failed: 0, skipped: 0, errors: 0 });
    expect(run.exitCode).toBe(0);
  }, 300_000);

  it("keeps the wrapper's own checks: a file prettier rejects fails the run before any test", async (context) => {
    if (installError) context.skip(installError);
    const file = join(dir, 'src/sum.ts');
    const formatted = readFileSync(file, 'utf8');
    writeFileSync(file, formatted.replace('return a + b;', 'return a+b;'));
    try {
      const runner = await resolveRunner(dir, {});
      const run = await runner.run({ cwd: dir, scope: 'full', timeoutMs: 200_000 });
      expect(run.exitCode).not.toBe(0);
      expect(counts(run.result)).toMatchObject({ passed: 0, failed: 0, errors: 1 });
      expect(run.result.errors[0]?.message).toMatch(/Running "prettier"[\s\S]*src\/sum\.ts/);
    } finally {
      writeFileSync(file, formatted);
    }
  }, 300_000);
});
