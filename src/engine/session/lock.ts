import { open, readFile, rm } from 'node:fs/promises';
import { hostname } from 'node:os';

/** Held by the one process driving a session; `release` removes it. */
export interface SessionLock {
  release(): Promise<void>;
}

/** True when a process with this id runs (on this machine). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Is the process that holds the lock file at `path` still running? False when no lock or no readable pid. */
export async function lockHolderAlive(path: string): Promise<boolean> {
  try {
    const { pid } = JSON.parse(await readFile(path, 'utf8')) as { pid?: number };
    return typeof pid === 'number' && isAlive(pid);
  } catch {
    return false;
  }
}

async function tryCreate(path: string): Promise<boolean> {
  try {
    const handle = await open(path, 'wx');
    await handle.writeFile(JSON.stringify({ pid: process.pid, host: hostname(), at: new Date().toISOString() }));
    await handle.close();
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/**
 * Takes the session's lock file, or returns the one-line reason it cannot.
 * A lock left by a process that no longer runs (kill -9, a crash) is taken over.
 */
export async function acquireLock(path: string, sessionId: string): Promise<SessionLock | string> {
  for (let attempt = 0; attempt < 2; attempt++) {
    if (await tryCreate(path)) return { release: () => rm(path, { force: true }) };
    let holder: { pid?: number; host?: string } = {};
    try {
      holder = JSON.parse(await readFile(path, 'utf8'));
    } catch {
      // An empty or torn lock file: its writer died before finishing, so it is stale.
    }
    const sameHost = !holder.host || holder.host === hostname();
    if (holder.pid && sameHost && isAlive(holder.pid) && holder.pid !== process.pid) {
      return `session ${sessionId} is being driven by process ${holder.pid}; watch it with \`fixcycle watch --session ${sessionId}\` or stop that process first`;
    }
    if (holder.pid && !sameHost) {
      return `session ${sessionId} is locked by process ${holder.pid} on ${holder.host}; if that is gone, delete ${path}`;
    }
    await rm(path, { force: true });
  }
  return `could not take the lock ${path}; delete it if no fixcycle process is running`;
}
