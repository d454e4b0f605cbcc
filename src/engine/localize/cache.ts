import { createHash } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { writeJsonAtomic } from '../session/atomic.js';
import { workflowDir } from '../session/paths.js';
import type { SpectrumRun } from './coverage-run.js';

const DIR = join('cache', 'localize');
/** Bumped when a spectrum's units change meaning: a cached one of another version is measured again. */
const SPECTRUM_VERSION = 'split-1';

/**
 * The cache key of a coverage run: the committed tree, the uncommitted changes, the runner and the failing tests.
 * The tree, not the commit: a fix rolled back by a revert commit leaves the tree the last run measured.
 * Null outside a git repository (nothing is cached then).
 */
export async function spectrumKey(root: string, runner: string, failing: readonly string[]): Promise<string | null> {
  const head = await execa('git', ['rev-parse', 'HEAD^{tree}'], { cwd: root, reject: false });
  if (head.exitCode !== 0) return null;
  const diff = await execa('git', ['diff', 'HEAD', '--no-color', '--no-ext-diff'], {
    cwd: root,
    reject: false,
    maxBuffer: 64 * 1024 * 1024,
  });
  return createHash('sha256')
    .update([SPECTRUM_VERSION, head.stdout.trim(), diff.stdout, runner, ...[...failing].sort()].join('\0'))
    .digest('hex')
    .slice(0, 24);
}

export async function readCachedSpectrum(root: string, key: string): Promise<SpectrumRun | null> {
  try {
    return JSON.parse(await readFile(join(workflowDir(root), DIR, `${key}.json`), 'utf8')) as SpectrumRun;
  } catch {
    return null;
  }
}

export async function cacheSpectrum(root: string, key: string, run: SpectrumRun): Promise<void> {
  await mkdir(join(workflowDir(root), DIR), { recursive: true });
  await writeJsonAtomic(join(workflowDir(root), DIR, `${key}.json`), run);
}
