import { createHash } from 'node:crypto';
import { mkdir, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { isAlive } from '../session/lock.js';

/**
 * Panes following a repository leave a heartbeat file (one per process, touched every HEARTBEAT_MS) outside
 * the repository, so a headless run can tell that someone is there to approve. Outside the repository: the
 * files must never show up in `git status` or make the tree dirty.
 */
export const HEARTBEAT_MS = 2000;
/** 3 beats: a pane that missed two is gone (killed, or its machine asleep). */
const FRESH_MS = 3 * HEARTBEAT_MS;

export function followersDir(repoRoot: string): string {
  const key = createHash('sha1').update(resolve(repoRoot)).digest('hex').slice(0, 16);
  return join(tmpdir(), 'fixcycle-followers', key);
}

/** Starts beating for this process; the returned function stops and removes the file. */
export async function startHeartbeat(repoRoot: string): Promise<() => Promise<void>> {
  const dir = followersDir(repoRoot);
  const file = join(dir, String(process.pid));
  await mkdir(dir, { recursive: true });
  await writeFile(file, new Date().toISOString());
  const timer = setInterval(() => {
    const now = new Date();
    void utimes(file, now, now).catch(() => writeFile(file, now.toISOString()).catch(() => undefined));
  }, HEARTBEAT_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await rm(file, { force: true });
  };
}

/** True when a pane whose process still runs beat within the last few seconds. */
export async function followerPresent(repoRoot: string, now = Date.now()): Promise<boolean> {
  const dir = followersDir(repoRoot);
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const name of names) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    const info = await stat(join(dir, name)).catch(() => null);
    if (info && now - info.mtimeMs < FRESH_MS && isAlive(pid)) return true;
  }
  return false;
}
