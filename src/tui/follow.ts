import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startHeartbeat } from '../engine/intents/followers.js';
import { createFixcycleStore, initialView } from '../state/store.js';
import { findRepoRoot, followSessions } from './follow-sessions.js';
import { IntentControls, type FollowedSession } from './intent-controls.js';
import { mirrorSession, type SessionMirror } from './session-mirror.js';
import { startTui } from './start.js';
import { agentsOf } from './session-agents.js';

/** Options of `fixcycle watch --follow` (and of the pane, which runs it). */
export interface FollowOptions {
  /** Any folder of the repository. */
  repo: string;
  /** Who the pane is, for the record of what it approved (`fixcycle pane %3`). */
  by?: string;
  stdout?: NodeJS.WriteStream;
  stdin?: NodeJS.ReadStream;
  env?: NodeJS.ProcessEnv;
  /** How often the files are polled besides fs.watch. Default: 250 ms for sessions, 1000 ms for a session's files. */
  pollMs?: number;
  /** `fixcycle pane <run options>`: start a headless loop with these options once the screen is up. */
  runArgs?: string[];
  /** Ring the bell when the session shown ends or waits for a decision. Default: true (`--no-bell`). */
  bell?: boolean;
}

/**
 * `fixcycle watch --follow`: waits for a session to start in the repository, shows it, keeps its final
 * screen when it ends until the next one starts, and switches to that at once. Keys act on the session
 * shown through its intents file, whatever process drives it. Never ends by itself: q leaves.
 */
export async function startFollow(options: FollowOptions): Promise<number> {
  const root = findRepoRoot(options.repo);
  const store = createFixcycleStore();
  const applyEvent = store.getState().apply;
  let followed: FollowedSession | null = null;
  let mirror: SessionMirror | null = null;

  const pane = (options.env ?? process.env).TMUX_PANE;
  const by =
    options.by ??
    (pane ? `fixcycle pane ${pane} (pid ${process.pid})` : `fixcycle watch --follow (pid ${process.pid})`);
  const controls = new IntentControls(
    () => followed,
    by,
    (text) => tui.notify(text),
    (id) =>
      import('../engine/isolation/take-fixes.js').then(({ takeWaitingFixes }) =>
        takeWaitingFixes(root, id, applyEvent),
      ),
  );
  const apply: typeof applyEvent = (event) => {
    if (event.type === 'state') {
      const started = Date.parse(event.state.started_at);
      if (Number.isFinite(started) && started !== store.getState().startedAt) store.setState({ startedAt: started });
      for (const answer of controls.takeAnswers(event.state.intents)) {
        tui.notify(
          `${answer.action}: ${answer.note ?? (answer.applied ? 'done' : 'not applied')}`,
          answer.applied ? 'info' : 'warn',
        );
      }
    }
    applyEvent(event);
  };

  const show = async (id: string | null, dir: string | null) => {
    mirror?.stop();
    mirror = null;
    followed = id && dir ? { id, dir } : null;
    controls.reset();
    store.getState().output.clear();
    store.setState(initialView());
    if (!id || !dir) return;
    apply({ type: 'session', sessionId: id, sessionDir: dir, repo: root, chain: [], testCommand: '', resumed: false });
    const chain = await agentsOf(dir);
    if (followed?.id !== id) return;
    if (chain.length > 0) store.setState({ chain });
    mirror = mirrorSession({
      dir,
      apply,
      warn: (text) => tui.notify(text),
      pollMs: options.pollMs ? Math.max(options.pollMs, 250) : undefined,
    });
  };

  const tui = startTui({
    store,
    controls,
    title: 'fixcycle',
    follow: root,
    stdout: options.stdout,
    stdin: options.stdin,
    env: options.env,
    bell: options.bell,
  });
  const stopBeat = await startHeartbeat(root).catch(() => async () => undefined);
  const follower = followSessions({
    repoRoot: root,
    pollMs: options.pollMs,
    onSession: (id, dir) => void show(id, dir),
    onGone: (id) => {
      void show(null, null);
      tui.notify(`${id} was deleted: waiting for the next session`);
    },
  });
  if (options.runArgs) startRun(root, options.runArgs, (text) => tui.notify(text));
  try {
    await tui.waitUntilExit();
  } finally {
    follower.stop();
    (mirror as SessionMirror | null)?.stop();
    await stopBeat();
  }
  tui.printReceipt(false);
  return 0;
}

/**
 * The loop a pane starts: headless, waiting for the pane's decisions, in its own process group so it
 * outlives a pane closed with "leave it running". Its messages go to a file outside the repository;
 * a run that cannot start says why in the pane.
 */
function startRun(root: string, args: string[], say: (text: string) => void): void {
  const log = join(tmpdir(), `fixcycle-pane-run-${process.pid}-${Date.now()}.log`);
  const fd = openSync(log, 'w');
  const child = spawn(
    process.execPath,
    [process.argv[1]!, 'run', '--headless', '--wait-approval', '-C', root, ...args],
    { cwd: root, stdio: ['ignore', 'ignore', fd], detached: true },
  );
  closeSync(fd);
  child.on('error', (error) => say(`could not start the run: ${error.message}`));
  child.on('exit', (code) => {
    const last = readFileSync(log, 'utf8').trim().split('\n').at(-1) ?? '';
    rmSync(log, { force: true });
    if (code === 2) say(last || 'the run could not start (exit 2)');
  });
  child.unref();
}
