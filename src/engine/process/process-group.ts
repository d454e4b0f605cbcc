/**
 * Process groups: a command starts detached (leader of its own group), so killing `-pgid` reaches every
 * process it started, including grandchildren that would otherwise be left behind as orphans.
 */

const liveGroups = new Set<number>();
let exitHookInstalled = false;

/** Sends `signal` to every process of the group; false when none is left. */
export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/** True while any process of the group exists. */
export function groupAlive(pgid: number): boolean {
  return signalGroup(pgid, 0);
}

/**
 * SIGTERM to the whole group, then SIGKILL to what is left after `graceMs`.
 * Resolves once the group is gone or SIGKILL was sent.
 */
export async function killGroup(pgid: number, graceMs: number): Promise<void> {
  if (!signalGroup(pgid, 'SIGTERM')) return;
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    await sleep(50);
    if (!groupAlive(pgid)) return;
  }
  signalGroup(pgid, 'SIGKILL');
}

/** Remembers a group so that it is killed if fixcycle itself exits while the command still runs. */
export function trackGroup(pgid: number): () => void {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', () => {
      for (const group of liveGroups) signalGroup(group, 'SIGKILL');
    });
  }
  liveGroups.add(pgid);
  return () => liveGroups.delete(pgid);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
