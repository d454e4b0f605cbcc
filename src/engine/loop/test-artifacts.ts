import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeJsonAtomic } from '../session/atomic.js';
import type { LoopContext } from './context.js';

/** path -> content hash ('-' for a deleted or unreadable file). */
type Fingerprints = Record<string, string>;

function fingerprint(root: string, file: string): string {
  try {
    return createHash('sha1')
      .update(readFileSync(join(root, file)))
      .digest('hex');
  } catch {
    return '-';
  }
}

function artifactsFile(ctx: LoopContext): string {
  return join(ctx.session.paths.processDir, 'test-artifacts.json');
}

/**
 * Remembers the untracked files the test command itself left in the working tree (node-tap 18's `.tap/`, a
 * coverage folder or a report the project does not ignore), so that it is never taken for part of a fix. Saved in the session: a resumed
 * session still knows. `untracked`: the list when the caller has read git status already.
 */
export async function recordTestArtifacts(
  ctx: LoopContext,
  fixFiles: readonly string[] = [],
  untracked?: Promise<readonly string[]>,
): Promise<void> {
  const root = ctx.repo.root;
  // Untracked files only, and never the fix's own: a re-test runs before the fix is committed.
  const own = new Set(fixFiles);
  const files = (await (untracked ?? ctx.repo.untrackedFiles())).filter((f) => !own.has(f));
  const prints: Fingerprints = Object.fromEntries(files.map((f) => [f, fingerprint(root, f)]));
  await writeJsonAtomic(artifactsFile(ctx), prints);
}

/** The files a fix changed: the working tree's changes less the test artifacts it left exactly as the tests wrote them. */
export async function filesChangedByFix(ctx: LoopContext): Promise<string[]> {
  const changed = await ctx.repo.changedFiles();
  let prints: Fingerprints = {};
  try {
    prints = JSON.parse(await readFile(artifactsFile(ctx), 'utf8')) as Fingerprints;
  } catch {
    return changed; // no run recorded any (or the file is unreadable): everything counts
  }
  return changed.filter((f) => prints[f] === undefined || prints[f] !== fingerprint(ctx.repo.root, f));
}
