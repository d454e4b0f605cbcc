import { ConfigError } from '../engine/config.js';
import type { EngineEvent, LoopControls } from '../engine/events.js';
import { GitSafetyError } from '../engine/git.js';
import { RunnerResolutionError } from '../engine/runners/index.js';
import { EXIT } from '../engine/loop/exit-codes.js';
import type { LoopResult, TestFixLoop } from '../engine/loop/loop.js';
import { SessionFileError } from '../engine/session/session-files.js';
import { watchIntents } from '../engine/intents/apply-intents.js';
import { IsolationError } from '../engine/isolation/session-worktree.js';
import { TreeChangedError } from '../engine/isolation/tree-guard.js';
import { prepareLoop, StartError, type StartOptions } from '../engine/start.js';
import { plainLine } from '../headless/plain-reporter.js';
import { createFixcycleStore } from '../state/store.js';
import type { Output } from './output.js';

export interface RunOptions extends Omit<StartOptions, 'emit' | 'interactive'> {
  /** Plain progress lines even on a terminal. */
  headless: boolean;
  /** NDJSON events on stdout. */
  json: boolean;
  /** Shown in the TUI's title (the demo labels itself). */
  title?: string;
  demo?: boolean;
  /** Ring the bell when the run ends or waits for a decision. Default: true (`--no-bell`). */
  bell?: boolean;
}

/** Errors the user can fix: one line, exit 2. Anything else is a bug and keeps its stack. */
export function userError(error: unknown): string | null {
  if (error instanceof StartError || error instanceof GitSafetyError || error instanceof ConfigError)
    return error.message;
  if (
    error instanceof RunnerResolutionError ||
    error instanceof SessionFileError ||
    error instanceof IsolationError ||
    error instanceof TreeChangedError
  )
    return error.message;
  return null;
}

/** `fixcycle run`: drives the loop in the TUI on a terminal, headless otherwise; returns the exit code. */
export async function runLoopCommand(options: RunOptions, out: Output): Promise<number> {
  const store = createFixcycleStore();
  const interactive = !options.headless && !options.json && Boolean(process.stdout.isTTY && process.stdin.isTTY);
  const emit = (event: EngineEvent): void => {
    store.getState().apply(event);
    if (options.json) out.stdout(JSON.stringify(event));
    else if (!interactive) {
      const line = plainLine(event);
      if (line) out.stdout(line);
    }
  };

  // Ctrl-C is caught from the start: a new session's first run starts before the loop is built, and must
  // stop with it (its commands run in their own process group, which the default handler would leave running).
  const abort = new AbortController();
  const driving: { loop?: TestFixLoop } = {};
  let signals = 0;
  const onSignal = (): void => {
    signals++;
    if (signals === 1) {
      if (!interactive)
        out.stderr(
          'fixcycle: stopping after the running step is killed; the session stays resumable (press Ctrl-C again to quit at once)',
        );
      if (driving.loop) driving.loop.controls.stop();
      else abort.abort();
    } else process.exit(EXIT.interrupted);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const offSignals = (): void => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };

  let prepared;
  try {
    prepared = await prepareLoop({ ...options, interactive, emit, abort });
  } catch (error) {
    offSignals();
    const message = userError(error);
    if (!message) throw error;
    out.stderr(`fixcycle: ${message}`);
    return EXIT.usage;
  }
  const release = prepared.release;
  const loop = (driving.loop = prepared.loop);
  if (abort.signal.aborted) loop.controls.stop();
  // Keys pressed in a pane (`fixcycle pane`) reach this loop through the session's intents file.
  const intents = watchIntents(prepared.ctx.session.paths.dir, loop.intentTarget(), emit);

  try {
    if (!interactive) {
      const result = await loop.run();
      await prepared.finish(result);
      return result.exitCode;
    }
    return await runInTui(loop, store, options, prepared.finish, () =>
      import('../engine/isolation/take-fixes.js').then(({ takeWaitingFixes }) =>
        takeWaitingFixes(options.cwd, prepared.sessionId, store.getState().apply),
      ),
    );
  } catch (error) {
    const message = userError(error);
    if (!message) throw error;
    out.stderr(`fixcycle: ${message}`);
    return EXIT.usage;
  } finally {
    offSignals();
    intents.stop();
    await release();
  }
}

/** Runs the loop behind the TUI; the user may quit while it runs (the loop then stops and saves). */
async function runInTui(
  loop: TestFixLoop,
  store: ReturnType<typeof createFixcycleStore>,
  options: RunOptions,
  finish: (result: LoopResult) => Promise<void>,
  take: () => Promise<string | null>,
): Promise<number> {
  const { importTui } = await import('../tui/load.js');
  // Fixes left waiting on the session's branch (--no-apply, a switched branch) are taken with one key.
  const controls: LoopControls = loop.controls;
  controls.takeFixes = () => {
    if (!store.getState().done) return 'The loop still runs: its fixes come back when it ends';
    take().then(
      (why) => why && store.getState().apply({ type: 'log', level: 'warn', message: why }),
      (error: Error) =>
        store.getState().apply({ type: 'log', level: 'error', message: `could not take the fixes: ${error.message}` }),
    );
    return null;
  };
  const { startTui } = await importTui(() => import('../tui/start.js'));
  const tui = startTui({
    store,
    controls,
    title: options.title,
    demo: options.demo,
    bell: options.bell,
  });
  let result: LoopResult | null = null;
  // The fixes come back once the loop ended, while the TUI still shows the session (a line says where they are).
  const running = loop.run().then(async (r) => {
    result = r;
    await finish(r);
    return r;
  });
  try {
    await Promise.race([running, tui.waitUntilExit()]);
    // The user quit the TUI while the loop ran: stop it and let it save its state.
    if (!result) loop.controls.stop();
    await running;
  } catch (error) {
    // Leave the alternate screen before the error is printed.
    tui.unmount();
    throw error;
  }
  await tui.waitUntilExit();
  tui.printReceipt(true);
  return (result as LoopResult | null)?.exitCode ?? EXIT.interrupted;
}
