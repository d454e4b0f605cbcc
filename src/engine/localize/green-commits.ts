import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { execFile } from 'node:child_process';
import { writeJsonAtomic } from '../session/atomic.js';

const GREEN_FILE = 'fixcycle/green-commits.json';

/**
 * The commit where each test last passed, kept across sessions in the repository's git folder
 * (`.git/fixcycle/green-commits.json`: beside the commits it names, out of the work tree, kept by `git clean`):
 * the base the change evidence is measured from. Only runs of a clean work tree count (uncommitted edits were
 * not tested at any commit). The common git folder, not a linked worktree's own: a session's worktree reads what
 * the user's tree recorded, and what it records outlives the worktree.
 */
async function greenFile(root: string): Promise<string | null> {
  // Asked once per repository and process: every passing run records its tests, and each git call is ~15 ms.
  let path = greenFiles.get(root);
  if (!path) {
    path = git(root, ['rev-parse', '--git-common-dir']).then((p) => (p ? join(resolve(root, p), GREEN_FILE) : null));
    greenFiles.set(root, path);
  }
  return path;
}
const greenFiles = new Map<string, Promise<string | null>>();

/** The repository's common git folder (absolute), when the caller asked git already: the first record asks no more. */
export function rememberCommonDir(root: string, commonDir: string): void {
  greenFiles.set(root, Promise.resolve(join(commonDir, GREEN_FILE)));
}

type Green = Record<string, string>;

/** One call for HEAD and the tracked files' state: `# branch.oid <sha>` heads porcelain v2's answer. */
async function readTree(root: string): Promise<TreeAtRun | null> {
  const status = await git(root, ['status', '--porcelain=v2', '--branch', '--untracked-files=no']);
  if (status === null) return null;
  const head = /^# branch\.oid ([0-9a-f]{40,64})$/m.exec(status)?.[1] ?? null;
  return { head, trackedChanges: status.split('\n').some((l) => l !== '' && !l.startsWith('#')) };
}

/** git's trimmed stdout, or null when it fails (a plain child process: this runs after every passing run). */
function git(root: string, args: string[]): Promise<string | null> {
  return new Promise((done) =>
    execFile('git', args, { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }, (error, stdout) =>
      done(error ? null : stdout.trim()),
    ),
  );
}

async function readGreen(root: string, file?: string): Promise<Green> {
  try {
    return JSON.parse(await readFile(file ?? (await greenFile(root))!, 'utf8')) as Green;
  } catch {
    return {};
  }
}

/** HEAD and whether tracked files have uncommitted changes: what Repo.workTreeStatus says. */
export interface TreeAtRun {
  head: string | null;
  trackedChanges: boolean;
}

/**
 * Records the tests that passed at HEAD, when the work tree holds no uncommitted change to tracked files.
 * `known`: the work tree's status when the caller has it (the loop reads git status once after every run).
 */
export async function recordGreenTests(
  root: string,
  passed: readonly string[],
  known?: { tree: Promise<TreeAtRun> },
): Promise<void> {
  if (passed.length === 0) return;
  const [tree, file] = await Promise.all([known ? known.tree : readTree(root), greenFile(root)]);
  if (!tree?.head || tree.trackedChanges || !file) return;
  const head = tree.head;
  const green = await readGreen(root, file);
  for (const id of passed) green[id] = head;
  await mkdir(dirname(file), { recursive: true });
  await writeJsonAtomic(file, green);
}

/**
 * The last commit where these tests passed: of the commits recorded for them, the one nearest HEAD among
 * HEAD's ancestors. Null when none is known.
 */
export async function lastGreenCommit(root: string, tests: readonly string[]): Promise<string | null> {
  const green = await readGreen(root);
  const candidates = [...new Set(tests.map((t) => green[t]).filter((sha): sha is string => Boolean(sha)))];
  let best: { sha: string; distance: number } | null = null;
  for (const sha of candidates) {
    const count = await git(root, ['rev-list', '--count', `${sha}..HEAD`]);
    const ancestor = await git(root, ['merge-base', '--is-ancestor', sha, 'HEAD']);
    if (count === null || ancestor === null) continue;
    if (!best || Number(count) < best.distance) best = { sha, distance: Number(count) };
  }
  return best?.sha ?? null;
}
