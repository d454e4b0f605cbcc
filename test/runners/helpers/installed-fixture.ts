import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from './fixtures.js';

export interface InstalledFixture {
  dir: string;
  /** Why the install failed (the test then skips naming it), or null. */
  installError: string | null;
}

/**
 * A temp copy of a fixture project with its own dependencies installed from the registry (install scripts off), for
 * tests that run a real wrapper (kcd-scripts, react-scripts, vue-cli-service) as a user's project has it.
 */
export function installFixture(name: string, what: string): InstalledFixture {
  const dir = mkdtempSync(join(tmpdir(), `fixcycle-${name}-`));
  cpSync(join(REPO_ROOT, 'test/fixtures/projects', name), dir, { recursive: true });
  const install = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts'], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 400_000,
  });
  const lastLine = install.stderr?.trim().split('\n').at(-1) || 'no output';
  return { dir, installError: install.status === 0 ? null : `npm install of ${what} failed (${lastLine})` };
}

/** An installed wrapper's node_modules (tens of thousands of files) can take minutes to delete on a loaded machine. */
export const REMOVE_TIMEOUT_MS = 300_000;
