import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { NormalizedResult } from '../../../src/engine/types.js';

/** The repository root: its node_modules holds the real runners (devDependencies) the fixtures use. */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const FIXTURES = join(REPO_ROOT, 'test', 'fixtures', 'projects');

const made: string[] = [];

/**
 * Copies test/fixtures/projects/<name> to a temp folder whose node_modules links each package of the
 * repository's (the runners are its devDependencies), so caches a run writes there stay in the copy.
 */
export function copyFixture(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `fixcycle-${name}-`));
  made.push(dir);
  cpSync(join(FIXTURES, name), dir, { recursive: true });
  const modules = join(REPO_ROOT, 'node_modules');
  mkdirSync(join(dir, 'node_modules'));
  for (const entry of readdirSync(modules)) {
    if (entry !== '.cache') symlinkSync(join(modules, entry), join(dir, 'node_modules', entry));
  }
  return dir;
}

/** Removes every folder copyFixture made. */
export function removeFixtures(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** passed / failed / skipped counts of a normalized result, and its errors outside tests. */
export function counts(result: NormalizedResult): { passed: number; failed: number; skipped: number; errors: number } {
  const out = { passed: 0, failed: 0, skipped: 0, errors: result.errors.length };
  for (const test of result.tests) out[test.status]++;
  return out;
}

/** Why a tool the test needs is missing, or null when one of the probe commands runs. */
export function missingTool(...probes: [string, string[]][]): string | null {
  for (const [command, args] of probes) {
    if (spawnSync(command, args, { stdio: 'ignore' }).status === 0) return null;
  }
  return `${probes.map(([command, args]) => [command, ...args].join(' ')).join(' / ')} does not run here (install it to run these tests)`;
}
