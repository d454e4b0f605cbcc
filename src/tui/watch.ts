import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { activeDir, gitDirOf, SESSION_PREFIX } from '../engine/session/paths.js';
import { putBackLeftLink } from '../engine/session/session-link.js';
import { createFixcycleStore } from '../state/store.js';
import { startHeartbeat } from '../engine/intents/followers.js';
import { findRepoRoot, runningSession } from './follow-sessions.js';
import { IntentControls } from './intent-controls.js';
import { agentsOf } from './session-agents.js';
import { mirrorSession } from './session-mirror.js';
import { startTui } from './start.js';

/** Options of `fixcycle watch`. */
export interface WatchOptions {
  /** The repository whose `.workflow/active/` holds the session. */
  repo: string;
  /** A session id (`WFS-test-<name>`, or just `<name>`); default: the most recently updated session. */
  sessionId?: string;
  /** Streams and environment, for tests. Default: the process's. */
  stdout?: NodeJS.WriteStream;
  stdin?: NodeJS.ReadStream;
  stderr?: NodeJS.WritableStream;
  env?: NodeJS.ProcessEnv;
  /** How often the files are polled besides fs.watch. Default: 1000 ms. */
  pollMs?: number;
  /** Follow the repository's sessions (`--follow`); the default when no session is given and none is running. */
  follow?: boolean;
  /** Following: run options of a loop to start (`fixcycle pane <run options>`). */
  runArgs?: string[];
  /** Ring the bell when the session ends or waits for a decision. Default: true (`--no-bell`). */
  bell?: boolean;
}

async function isDir(path: string): Promise<boolean> {
  return (await stat(path).catch(() => null))?.isDirectory() ?? false;
}

/** The session folder to watch, or a one-line reason why there is none. */
export async function findWatchedSession(
  repo: string,
  sessionId?: string,
): Promise<{ ok: true; id: string; dir: string } | { ok: false; error: string }> {
  const root = activeDir(resolve(repo));
  if (sessionId) {
    for (const id of [sessionId, `${SESSION_PREFIX}${sessionId}`]) {
      if (await isDir(join(root, id))) return { ok: true, id, dir: join(root, id) };
    }
    const known = (await readdir(root).catch(() => [] as string[])).filter((n) => n.startsWith(SESSION_PREFIX));
    const hint = known.length > 0 ? `sessions there: ${known.slice(0, 5).join(', ')}` : 'start one with fixcycle run';
    return { ok: false, error: `no session ${sessionId} under ${root}: ${hint}` };
  }
  const { findLatestSession } = await import('../engine/session/session-files.js');
  const latest = await findLatestSession(resolve(repo));
  if (latest) return { ok: true, id: latest, dir: join(root, latest) };
  // A session that has not written its state yet is still worth watching.
  const names = (await readdir(root).catch(() => [] as string[])).filter((n) => n.startsWith(SESSION_PREFIX)).sort();
  const last = names.at(-1);
  if (last) return { ok: true, id: last, dir: join(root, last) };
  return { ok: false, error: `no session under ${root}: start one with fixcycle run, or pass -C <repo>` };
}

/**
 * `fixcycle watch`: the same TUI on a session driven by another process (fixcycle in another terminal,
 * or a Claude-Code-Workflow session), mirrored from its files. Keys that need the loop say so.
 * Resolves with the exit code: 0 after the user quits, 2 when there is no session to watch.
 */
export async function startWatch(options: WatchOptions): Promise<number> {
  const stderr = options.stderr ?? process.stderr;
  const repoRoot = findRepoRoot(options.repo);
  // A `.workflow` link a crashed fixcycle left out of the tree comes back; one out for a running command stays out.
  const gitDir = gitDirOf(repoRoot);
  if (gitDir) await putBackLeftLink(repoRoot, gitDir).catch(() => false);
  if (options.follow || (!options.sessionId && !(await runningSession(repoRoot)))) {
    const { startFollow } = await import('./follow.js');
    return startFollow({
      repo: options.repo,
      runArgs: options.runArgs,
      stdout: options.stdout,
      stdin: options.stdin,
      env: options.env,
      pollMs: options.pollMs,
      bell: options.bell,
    });
  }
  const found = await findWatchedSession(options.repo, options.sessionId);
  if (!found.ok) {
    stderr.write(`fixcycle watch: ${found.error}\n`);
    return 2;
  }
  const store = createFixcycleStore();
  const applyEvent = store.getState().apply;
  // Keys act as the pane's do: intents the process driving the session applies (or a line saying how to act).
  const controls = new IntentControls(
    () => ({ id: found.id, dir: found.dir }),
    `fixcycle watch (pid ${process.pid})`,
    (text) => tui.notify(text),
    (id) =>
      import('../engine/isolation/take-fixes.js').then(({ takeWaitingFixes }) =>
        takeWaitingFixes(options.repo, id, applyEvent),
      ),
  );
  const apply: typeof applyEvent = (event) => {
    // The clock counts from when the watched session started, not from when watching did.
    if (event.type === 'state') {
      const started = Date.parse(event.state.started_at);
      if (Number.isFinite(started) && started !== store.getState().startedAt) store.setState({ startedAt: started });
      for (const answer of controls.takeAnswers(event.state.intents))
        tui.notify(
          `${answer.action}: ${answer.note ?? (answer.applied ? 'done' : 'not applied')}`,
          answer.applied ? 'info' : 'warn',
        );
    }
    applyEvent(event);
  };
  apply({
    type: 'session',
    sessionId: found.id,
    sessionDir: found.dir,
    repo: resolve(options.repo),
    chain: await agentsOf(found.dir),
    testCommand: '',
    resumed: false,
  });
  const tui = startTui({
    store,
    controls,
    title: 'fixcycle watch',
    stdout: options.stdout,
    stdin: options.stdin,
    env: options.env,
    bell: options.bell,
  });
  const mirror = mirrorSession({ dir: found.dir, apply, warn: (text) => tui.notify(text), pollMs: options.pollMs });
  // A headless run at a partial success waits for a decision while someone watches.
  const stopBeat = await startHeartbeat(repoRoot).catch(() => async () => undefined);
  try {
    await tui.waitUntilExit();
  } finally {
    mirror.stop();
    await stopBeat();
  }
  tui.printReceipt(false);
  return 0;
}
