import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { blobAt, mergeContents } from './blob-merge.js';
import { gitOut, gitRun } from './git-run.js';
import { journalContent, type HandBackJournal } from './handback-journal.js';

/** A file's entry in a tree or the index: its mode and blob, or null where it is absent. */
export type Entry = { mode: string; sha: string } | null;

export const read = (path: string): Promise<Buffer | null> => readFile(path).catch(() => null);

/** The user's index entries (stage 0) at these paths. */
export async function indexEntries(
  root: string,
  paths: readonly string[],
): Promise<Map<string, { mode: string; sha: string }>> {
  const out = await gitOut(root, ['ls-files', '-s', '-z', '--', ...paths]);
  const entries = new Map<string, { mode: string; sha: string }>();
  for (const line of out.split('\0').filter(Boolean)) {
    const [meta, path] = line.split('\t') as [string, string];
    const [mode, sha] = meta.split(' ');
    entries.set(path, { mode: mode!, sha: sha! });
  }
  return entries;
}

export async function blob(root: string, entry: Entry): Promise<Buffer | null> {
  return entry ? blobAt(root, entry.sha, '') : null;
}

export const equal = (a: Buffer | null, b: Buffer | null): boolean =>
  a === null ? b === null : b !== null && a.equals(b);

/** `ours` with the changes from `base` to `theirs`; 'conflict' where they meet (or a side is absent or binary). */
export async function mergeThreeWay(
  root: string,
  ours: Buffer | null,
  base: Buffer | null,
  theirs: Buffer | null,
): Promise<Buffer | null | 'conflict'> {
  if (equal(ours, base)) return theirs;
  if (equal(ours, theirs) || equal(base, theirs)) return ours;
  if (!ours || !base || !theirs) return 'conflict';
  return (await mergeContents(root, ours, base, theirs)) ?? 'conflict';
}

/**
 * Writes one working copy atomically (a temporary file renamed over it), keeping the executable bit git records,
 * only while the file still holds `expected` (what the merge was made from): false, and nothing written, when the
 * user saved it meanwhile. The check comes after the slow part, just before the rename, so a save can only be lost
 * in the instant between the two.
 */
async function writeWorkingIfUnchanged(
  root: string,
  file: string,
  content: Buffer | null,
  mode: string,
  expected: Buffer | null,
): Promise<boolean> {
  const path = join(root, file);
  if (content === null) {
    if (!equal(await read(path), expected)) return false;
    await rm(path, { force: true });
    return true;
  }
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.fixcycle-${process.pid}`;
  await writeFile(tmp, content);
  await chmod(tmp, mode === '100755' ? 0o755 : 0o644);
  if (!equal(await read(path), expected)) {
    await rm(tmp, { force: true });
    return false;
  }
  await rename(tmp, path);
  return true;
}

/** How often a file the user keeps saving is merged again before the hand-back leaves their copy as it is. */
const SAVE_RETRIES = 20;

/** What the hand-back did to the user's files: merged into a save that came during it, or left for a conflict. */
export interface Written {
  mergedSaves: string[];
  kept: string[];
}

/**
 * The user's tree takes the journal's files. A working copy saved since the plan gets the fix merged three-way
 * into it (from the copy the plan saw), or is kept as it is where the two meet; an index entry staged since the
 * plan is left as it is. `known`: the contents the plan holds in memory (the journal's blobs are read otherwise).
 */
export async function writeJournalFiles(
  root: string,
  journal: HandBackJournal,
  known: Map<string, { content: Buffer | null; seen: Buffer | null }>,
): Promise<Written> {
  const written: Written = { mergedSaves: [], kept: [] };
  for (const file of journal.files) {
    const plan = known.get(file.path) ?? {
      content: await journalContent(root, file.blob),
      seen: await journalContent(root, file.seen),
    };
    // A save that lands while the fix is merged in makes the merge start again from the newer copy.
    for (let attempt = 0; ; attempt++) {
      const now = await read(join(root, file.path));
      let content = plan.content;
      const saved = !equal(now, plan.seen);
      if (saved) {
        const merged = await mergeThreeWay(root, now, plan.seen, plan.content);
        if (merged === 'conflict') {
          written.kept.push(file.path);
          break;
        }
        if (equal(merged, now)) break;
        content = merged;
      }
      if (await writeWorkingIfUnchanged(root, file.path, content, file.mode, now)) {
        if (saved) written.mergedSaves.push(file.path);
        break;
      }
      if (attempt >= SAVE_RETRIES) {
        written.kept.push(file.path);
        break;
      }
    }
  }
  const staged = await indexEntries(
    root,
    journal.files.map((f) => f.path),
  );
  const lines = journal.files
    .filter((f) => {
      const now = staged.get(f.path);
      return (now ? `${now.mode} ${now.sha}` : null) === f.indexBefore;
    })
    .map((f) => f.indexLine);
  if (lines.length) await updateIndex(root, lines);
  return written;
}

/**
 * Writes the user's index entries of the fixed files. Another git command holding the index (the user's, or a
 * second session handing back) is waited for briefly: its lock is released within milliseconds.
 */
async function updateIndex(root: string, lines: readonly string[]): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const r = await gitRun(root, ['update-index', '--index-info'], { input: lines.join('\n') + '\n' });
    if (r.code === 0) return;
    if (attempt >= 20 || !/index\.lock/.test(r.stderr))
      throw new Error(`git update-index failed: ${r.stderr.trim().split('\n')[0]}`);
    await new Promise((done) => setTimeout(done, 100));
  }
}
