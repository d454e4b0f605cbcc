import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** Writes `files` (path -> content) into a fresh temp folder, a git repository unless `git: false`. */
export function makeProject(files: Record<string, string>, options: { git?: boolean } = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'fixcycle-affected-'));
  writeFiles(dir, files);
  if (options.git !== false) execFileSync('git', ['init', '-q'], { cwd: dir });
  return dir;
}

/** Writes (or overwrites) files in a project. */
export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
}

/** Removes the temp projects a test suite made. */
export function removeProjects(dirs: string[]): void {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}
