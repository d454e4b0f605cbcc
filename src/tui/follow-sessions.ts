import { existsSync, watch, type FSWatcher } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { serialPasses } from '../engine/session/file-watch.js';
import { activeDir } from '../engine/session/paths.js';

/** Folders of sessions fixcycle and Claude-Code-Workflow write: `WFS-test-<name>`, `WFS-<name>`. */
const SESSION_DIR = /^WFS-/;

/** The repository root above `dir` (the nearest folder with a `.git`), or `dir` itself. */
export function findRepoRoot(dir: string): string {
  let at = resolve(dir);
  for (;;) {
    if (existsSync(join(at, '.git'))) return at;
    const up = dirname(at);
    if (up === at) return resolve(dir);
    at = up;
  }
}

interface Seen {
  /** When the session last wrote its state (or the folder changed, before it has one). */
  stamp: number;
  /** A fixcycle process holds the session's lock: it is being driven now. */
  live: boolean;
}

async function look(dir: string): Promise<Seen | null> {
  const [folder, state, lock] = await Promise.all([
    stat(dir).catch(() => null),
    stat(join(dir, '.process', 'iteration-state.json')).catch(() => null),
    stat(join(dir, '.lock')).catch(() => null),
  ]);
  if (!folder?.isDirectory()) return null;
  return { stamp: Math.max(folder.mtimeMs, state?.mtimeMs ?? 0), live: lock !== null };
}

/** Sessions of the repository with their stamps. */
async function scanSessions(dir: string): Promise<Map<string, Seen>> {
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => SESSION_DIR.test(n));
  const seen = await Promise.all(names.map((n) => look(join(dir, n))));
  const found = new Map<string, Seen>();
  names.forEach((n, i) => seen[i] && found.set(n, seen[i]!));
  return found;
}

/** The session a process drives now (the newest with a held lock), or null. */
export async function runningSession(repoRoot: string): Promise<string | null> {
  const found = [...(await scanSessions(activeDir(repoRoot)))]
    .filter(([, s]) => s.live)
    .sort((a, b) => b[1].stamp - a[1].stamp);
  return found[0]?.[0] ?? null;
}

export interface SessionFollower {
  /** Looks again now (resolves when done). */
  scan(): Promise<void>;
  stop(): void;
}

export interface FollowSessionsOptions {
  repoRoot: string;
  /** A session started (or came back to life): show it. */
  onSession(id: string, dir: string): void;
  /** The followed session's folder is gone. */
  onGone(id: string): void;
  /** Polled besides fs.watch. Default: 250 ms (inside the 0.5 s a pane may take to show a new session). */
  pollMs?: number;
}

/**
 * Follows the sessions of a repository like `tail -F` follows a file: picks up the session being driven
 * when it starts (or the one already running), stays on a session that ended until another one writes, and
 * says when the followed folder disappears. Watches `.workflow/active` (or the nearest existing parent
 * until it exists) and polls besides. The real folder, not the link: the link is out of the tree while the
 * user's command runs, and the first run makes it after the pane started.
 */
export function followSessions(options: FollowSessionsOptions): SessionFollower {
  let sessions = activeDir(options.repoRoot);
  const known = new Map<string, Seen>();
  let current: string | null = null;
  let first = true;
  let watcher: FSWatcher | null = null;
  let watching = '';
  // A pass under way when the follower stops must not report: its reader has moved on.
  let stopped = false;
  const onSession = (id: string, dir: string) => stopped || options.onSession(id, dir);
  const onGone = (id: string) => stopped || options.onGone(id);

  const rearm = () => {
    sessions = activeDir(options.repoRoot);
    const target = [sessions, dirname(sessions), options.repoRoot].find((d) => existsSync(d)) ?? options.repoRoot;
    if (target === watching && watcher) return;
    watcher?.close();
    watching = target;
    try {
      watcher = watch(target, (_event, name) => {
        // A new session folder: show it now, without waiting for a full scan's round of stat() calls.
        if (
          target === sessions &&
          name &&
          SESSION_DIR.test(name) &&
          !known.has(name) &&
          name !== current &&
          existsSync(join(sessions, name))
        ) {
          known.set(name, { stamp: Date.now(), live: true });
          current = name;
          onSession(name, join(sessions, name));
        }
        void scan();
      });
      watcher.on('error', () => {
        watcher?.close();
        watcher = null;
      });
    } catch {
      watcher = null;
    }
  };

  const pass = async () => {
    rearm();
    const found = await scanSessions(sessions);
    // Gone for real, not created after this pass listed the folder (the watcher may have shown it meanwhile).
    if (current && !found.has(current) && !existsSync(join(sessions, current))) {
      const gone = current;
      current = null;
      onGone(gone);
    }
    // Sessions that wrote since the last look (the first time round, only one being driven counts).
    const before = new Map(known);
    const moved = [...found]
      .filter(([id, s]) => (first ? s.live : before.get(id)?.stamp !== s.stamp))
      .sort((a, b) => b[1].stamp - a[1].stamp);
    known.clear();
    for (const [id, s] of found) known.set(id, s);
    first = false;
    const next = moved[0]?.[0];
    if (!next || next === current) return;
    // Two sessions driven at once: stay on the one shown while it is live, unless the other is brand new.
    if (current && found.get(current)?.live && before.has(next)) return;
    current = next;
    onSession(next, join(sessions, next));
  };

  const passes = serialPasses(pass, () => undefined);
  const scan = passes.run;
  const timer = setInterval(() => void scan(), options.pollMs ?? 250);
  timer.unref();
  void scan();
  return {
    scan,
    stop() {
      stopped = true;
      passes.stop();
      clearInterval(timer);
      watcher?.close();
    },
  };
}
