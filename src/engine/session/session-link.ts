import { renameSync } from 'node:fs';
import { lstat, mkdir, readdir, readlink, rename, symlink, unlink } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { keptWorkflowDir, WORKFLOW_DIR } from './paths.js';

// While the user's command runs, fixcycle's `.workflow` link waits next to the folder it stands for, named after
// the process that took it out of the tree: a later start can tell a link still in use from one a crash left.
const AWAY = `${WORKFLOW_DIR}-link-away-`;

/** Links taken out of the tree by this process, put back at its exit if it ends while they are out. */
const out = new Map<string, string>();
let exitHook = false;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Puts back the `.workflow` link a fixcycle took out of the tree and left out because it ended meanwhile (a
 * crash, Ctrl-C, kill -9); one a running fixcycle holds out for its user's command stays out. Resolves with
 * false when there is no `.workflow` and no link waiting.
 */
export async function putBackLeftLink(root: string, gitDir: string): Promise<boolean> {
  const link = join(root, WORKFLOW_DIR);
  if (
    await lstat(link).then(
      () => true,
      () => false,
    )
  )
    return true;
  const home = dirname(keptWorkflowDir(gitDir));
  const away = (await readdir(home).catch(() => [] as string[])).filter((name) => name.startsWith(AWAY));
  if (away.length === 0) return false;
  const left = away.filter((name) => {
    const pid = Number(name.slice(AWAY.length));
    // This process's own, when it is not out now: a process of the same number before it left it.
    return pid === process.pid ? !out.has(join(home, name)) : !alive(pid);
  });
  if (left.length < away.length) return true;
  await rename(join(home, left[0]!), link).catch(() => undefined);
  await Promise.all(left.slice(1).map((name) => unlink(join(home, name)).catch(() => undefined)));
  return true;
}

/**
 * Makes `<root>/.workflow` a link to the session folder kept in the git directory (created), unless a `.workflow`
 * is there already: a plain folder (an older session, Claude-Code-Workflow's) is kept as it is. A link left out
 * of the tree is put back (see putBackLeftLink).
 */
export async function placeSessionLink(root: string, gitDir: string): Promise<void> {
  if (await putBackLeftLink(root, gitDir)) return;
  const target = keptWorkflowDir(gitDir);
  try {
    await mkdir(target, { recursive: true });
    await symlink(resolve(target), join(root, WORKFLOW_DIR), 'dir');
  } catch {
    // No symbolic links here (Windows without the right): the session folder is a plain folder, as before.
  }
}

function putBackAtExit(): void {
  for (const [marker, link] of out) {
    try {
      renameSync(marker, link);
    } catch {
      // The next start puts it back.
    }
  }
}

/** Takes fixcycle's own `.workflow` link out of the tree; returns where it waits, or null when there was none. */
async function takeAway(root: string): Promise<string | null> {
  const link = join(root, WORKFLOW_DIR);
  // Not a link (a plain folder, which is never moved, or nothing): readlink fails.
  const target = await readlink(link).catch(() => null);
  // Only fixcycle's link: one of the user's own is left alone.
  if (!target || basename(target) !== WORKFLOW_DIR || basename(dirname(target)) !== 'fixcycle') return null;
  const marker = join(dirname(resolve(root, target)), `${AWAY}${process.pid}`);
  try {
    await rename(link, marker);
  } catch {
    return null;
  }
  out.set(marker, link);
  if (!exitHook) {
    exitHook = true;
    process.on('exit', putBackAtExit);
  }
  return marker;
}

async function putBack(root: string, marker: string): Promise<void> {
  // A `.workflow` made meanwhile (a folder) is not replaced: the link then waits for the next start.
  await rename(marker, join(root, WORKFLOW_DIR)).catch(() => undefined);
  out.delete(marker);
}

interface Away {
  users: number;
  marker: string | null;
  /** Taking away and putting back, one after the other. */
  chain: Promise<void>;
}

const byRoot = new Map<string, Away>();

/**
 * Runs `work` (the user's command) with fixcycle's `.workflow` link out of the working tree, and puts it back
 * after: whole-tree tools that follow links (prettier 2, fast-glob and globby users, markdownlint-cli) never see
 * the session's files. Runs that overlap share one absence. fixcycle and its panes use the real folder meanwhile.
 */
export async function withoutSessionLink<T>(root: string, work: () => Promise<T>): Promise<T> {
  let away = byRoot.get(root);
  if (!away) byRoot.set(root, (away = { users: 0, marker: null, chain: Promise.resolve() }));
  const entry = away;
  if (entry.users++ === 0) entry.chain = entry.chain.then(async () => void (entry.marker = await takeAway(root)));
  try {
    await entry.chain;
    return await work();
  } finally {
    if (--entry.users === 0) {
      entry.chain = entry.chain.then(async () => {
        const marker = entry.marker;
        entry.marker = null;
        if (marker) await putBack(root, marker);
      });
      await entry.chain;
    }
  }
}
