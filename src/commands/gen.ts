import type { EngineEvent, LoopControls } from '../engine/events.js';
import { GenInputError } from '../engine/gen/input.js';
import { GenPhaseError } from '../engine/gen/phase-analysis.js';
import { runGen, type GenRunOptions } from '../engine/gen/pipeline.js';
import { EXIT } from '../engine/loop/loop.js';
import { plainLine } from '../headless/plain-reporter.js';
import { createFixcycleStore } from '../state/store.js';
import type { Output } from './output.js';
import { userError } from './run.js';

export type GenCommandOptions = Omit<GenRunOptions, 'emit' | 'signal' | 'interactive'> & {
  headless: boolean;
  json: boolean;
};

/** Controls behind the TUI: quitting stops gen; once IMPL-002 runs, the keys go to the fix loop. */
function genControls(abort: AbortController, loop: { current: LoopControls | null }): LoopControls {
  return {
    approve: () => loop.current?.approve() ?? 'nothing to approve while tests are generated',
    requestRollback: () => loop.current?.requestRollback() ?? 'nothing to roll back while tests are generated',
    togglePause: () => loop.current?.togglePause() ?? false,
    stop: () => {
      loop.current?.stop();
      abort.abort();
    },
  };
}

/** `fixcycle gen [INPUT]` (and `run --resume-session` on a gen session): phases 1-5; returns the exit code. */
export async function runGenCommand(options: GenCommandOptions, out: Output): Promise<number> {
  const store = createFixcycleStore();
  const interactive = !options.headless && !options.json && Boolean(process.stdout.isTTY && process.stdin.isTTY);
  const abort = new AbortController();
  const loop: { current: LoopControls | null } = { current: null };
  const emit = (event: EngineEvent): void => {
    store.getState().apply(event);
    if (options.json) out.stdout(JSON.stringify(event));
    else if (!interactive) {
      const line = plainLine(event);
      if (line) out.stdout(line);
    }
  };
  let signals = 0;
  const onSignal = (): void => {
    if (++signals === 1) {
      if (!interactive)
        out.stderr(
          'fixcycle: stopping after the running step is killed; the session stays resumable (press Ctrl-C again to quit at once)',
        );
      abort.abort();
    } else process.exit(EXIT.interrupted);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  let tui: { waitUntilExit(): Promise<void>; unmount(): void } | null = null;
  try {
    if (interactive) {
      const { importTui } = await import('../tui/load.js');
      const { startTui } = await importTui(() => import('../tui/start.js'));
      tui = startTui({ store, controls: genControls(abort, loop), title: 'fixcycle gen' });
      void tui.waitUntilExit().then(() => abort.abort());
    }
    const code = await runGen({
      ...options,
      interactive,
      emit,
      signal: abort.signal,
      onLoopControls: (controls) => (loop.current = controls),
    });
    if (tui) await tui.waitUntilExit();
    return abort.signal.aborted && code !== EXIT.success ? EXIT.interrupted : code;
  } catch (error) {
    tui?.unmount();
    const message = error instanceof GenInputError || error instanceof GenPhaseError ? error.message : userError(error);
    if (!message) throw error;
    out.stderr(`fixcycle: ${message}`);
    return error instanceof GenPhaseError ? EXIT.failure : EXIT.usage;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
