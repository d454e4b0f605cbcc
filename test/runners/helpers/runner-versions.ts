import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** Where runner versions the repository does not depend on are installed once, outside the repository. */
const CACHE = join(homedir(), '.cache', 'fixcycle', 'runner-versions');

/**
 * The node_modules folder of `spec` (`mocha@5`) installed from the npm registry into the cache, or why it
 * could not be (no registry here): tests skip with that reason rather than fail.
 */
export function installRunner(spec: string): { modules: string } | { skip: string } {
  const dir = join(CACHE, spec.replace(/[^\w.@-]/g, '_'));
  const modules = join(dir, 'node_modules');
  const bin = spec.replace(/@[^@]*$/, '');
  if (existsSync(join(modules, '.bin', bin)) && existsSync(join(dir, '.installed'))) return { modules };
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'runner-version-cache', private: true }));
  const install = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--no-save', '--loglevel=error', spec], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 240_000,
  });
  if (install.status !== 0) {
    const why = (install.stderr || install.error?.message || '').trim().split('\n').slice(-1)[0];
    return { skip: `npm could not install ${spec} (${why}); the npm registry must be reachable for this test` };
  }
  writeFileSync(join(dir, '.installed'), spec);
  return { modules };
}

const made: string[] = [];

/** A throwaway project: the given files, and a node_modules link to an installed runner version. */
export function makeProject(files: Record<string, string>, modules: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'fixcycle-version-'));
  made.push(dir);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  symlinkSync(modules, join(dir, 'node_modules'));
  return dir;
}

export function removeProjects(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}
