import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { blobAt, mergeContents, writeBlob } from './blob-merge.js';
import { gitOut } from './git-run.js';

/** One path a commit changed, as `git diff-tree --raw` reports it. */
interface Change {
  path: string;
  /** Mode and blob before and after; null where the path is absent. */
  before: { mode: string; sha: string } | null;
  after: { mode: string; sha: string } | null;
}

const ZERO = /^0+$/;

async function changesOf(root: string, commit: string): Promise<Change[]> {
  const out = await gitOut(root, [
    'diff-tree',
    '-r',
    '-z',
    '--no-renames',
    '--no-commit-id',
    '--raw',
    `${commit}^`,
    commit,
  ]);
  const parts = out.split('\0');
  const changes: Change[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const [oldMode, newMode, oldSha, newSha] = parts[i]!.slice(1).split(' ');
    changes.push({
      path: parts[i + 1]!,
      before: ZERO.test(oldMode!) ? null : { mode: oldMode!, sha: oldSha! },
      after: ZERO.test(newMode!) ? null : { mode: newMode!, sha: newSha! },
    });
  }
  return changes;
}

/** The entries of `rev` at these paths (blob or gitlink), by path. */
export async function entriesAt(
  root: string,
  rev: string,
  paths: readonly string[],
): Promise<Map<string, { mode: string; sha: string }>> {
  const out = paths.length ? await gitOut(root, ['ls-tree', '-r', '-z', '--full-tree', rev, '--', ...paths]) : '';
  const entries = new Map<string, { mode: string; sha: string }>();
  for (const line of out.split('\0').filter(Boolean)) {
    const [meta, path] = line.split('\t') as [string, string];
    const [mode, , sha] = meta.split(' ');
    entries.set(path, { mode: mode!, sha: sha! });
  }
  return entries;
}

const same = (a: { sha: string } | null | undefined, b: { sha: string } | null | undefined): boolean =>
  (a?.sha ?? null) === (b?.sha ?? null);

/** The author of `commit` as git's environment variables, so a replayed commit keeps it. */
async function authorEnv(root: string, commit: string): Promise<NodeJS.ProcessEnv> {
  const [name, email, date] = (await gitOut(root, ['log', '-1', '--format=%an%x00%ae%x00%ai', commit]))
    .trim()
    .split('\0');
  return { GIT_AUTHOR_NAME: name, GIT_AUTHOR_EMAIL: email, GIT_AUTHOR_DATE: date };
}

/**
 * Cherry-picks `commits` onto `onto` without a working tree or the user's index (a temporary index, plumbing
 * only): each commit's changes are merged three-way into the new base, file by file. Resolves with the new tip,
 * or the first path where a commit's change meets a different change of the base (a conflict).
 */
export async function replayCommits(
  root: string,
  gitDir: string,
  commits: readonly string[],
  onto: string,
): Promise<{ tip: string; commits: string[] } | { conflict: string }> {
  let tip = onto;
  const made: string[] = [];
  const index = join(gitDir, 'fixcycle', `replay-index-${process.pid}-${Date.now()}`);
  const env = { GIT_INDEX_FILE: index };
  try {
    for (const commit of commits) {
      const changes = await changesOf(root, commit);
      const ours = await entriesAt(
        root,
        tip,
        changes.map((c) => c.path),
      );
      const lines: string[] = [];
      for (const c of changes) {
        const here = ours.get(c.path) ?? null;
        let next: { mode: string; sha: string } | null;
        if (same(here, c.before)) next = c.after;
        else if (same(here, c.after)) continue;
        else if (here && c.before && c.after && [here, c.before, c.after].every((e) => e.mode !== '160000')) {
          const [o, b, t] = await Promise.all([
            blobAt(root, here.sha, ''),
            blobAt(root, c.before.sha, ''),
            blobAt(root, c.after.sha, ''),
          ]);
          const merged = o && b && t ? await mergeContents(root, o, b, t) : null;
          if (!merged) return { conflict: c.path };
          next = { mode: c.after.mode, sha: await writeBlob(root, merged) };
        } else return { conflict: c.path };
        lines.push(next ? `${next.mode} ${next.sha}\t${c.path}` : `0 ${'0'.repeat(40)}\t${c.path}`);
      }
      await gitOut(root, ['read-tree', tip], { env });
      if (lines.length) await gitOut(root, ['update-index', '--index-info'], { env, input: lines.join('\n') + '\n' });
      const tree = (await gitOut(root, ['write-tree'], { env })).trim();
      // Its change is there already (the user made the same fix): nothing to replay.
      if (tree === (await gitOut(root, ['rev-parse', `${tip}^{tree}`])).trim()) continue;
      const message = await gitOut(root, ['log', '-1', '--format=%B', commit]);
      tip = (
        await gitOut(root, ['commit-tree', tree, '-p', tip], { env: await authorEnv(root, commit), input: message })
      ).trim();
      made.push(tip);
    }
    return { tip, commits: made };
  } finally {
    await rm(index, { force: true });
  }
}
