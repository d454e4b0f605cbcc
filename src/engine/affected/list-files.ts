import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

// Folders a walk skips when the project is not a git repository (with git, .gitignore decides).
const WALK_SKIPS = new Set(['node_modules', 'dist', 'build', 'coverage', 'target', '__pycache__', 'venv', 'vendor']);

/** Every project file under `cwd`, relative to it with `/` separators, never inside node_modules. */
export async function listProjectFiles(cwd: string): Promise<string[]> {
  const fromGit = await listWithGit(cwd);
  return fromGit ?? walk(cwd, '');
}

/** Tracked and untracked-but-not-ignored files, so a fix's new files count and build output does not. */
async function listWithGit(cwd: string): Promise<string[] | null> {
  try {
    const { stdout } = await run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
      cwd,
      maxBuffer: 256 * 1024 * 1024,
    });
    const files = new Set<string>();
    for (const file of stdout.split('\0')) {
      if (file !== '' && !file.includes('node_modules/')) files.add(file);
    }
    return [...files];
  } catch {
    return null;
  }
}

function walk(root: string, rel: string): string[] {
  const found: string[] = [];
  let entries;
  try {
    entries = readdirSync(join(root, rel), { withFileTypes: true });
  } catch {
    return found;
  }
  for (const entry of entries) {
    const path = rel === '' ? entry.name : `${rel}/${entry.name}`;
    if (entry.isDirectory()) {
      if (!entry.name.startsWith('.') && !WALK_SKIPS.has(entry.name)) found.push(...walk(root, path));
    } else if (entry.isFile()) {
      found.push(path);
    }
  }
  return found;
}
