import { createInterface } from 'node:readline/promises';
import type { EngineEvent, LoopControls } from '../engine/events.js';
import { EXIT } from '../engine/loop/completion-step.js';
import { PIPELINE_STAGES } from '../engine/team/pipelines.js';
import { runTeam, type TeamRunOptions } from '../engine/team/pipeline.js';
import { PIPELINES, type PipelineName } from '../engine/team/scope.js';
import { TasksCsvError } from '../engine/team/tasks-csv.js';
import { CycleError } from '../engine/team/waves.js';
import { plainLine } from '../headless/plain-reporter.js';
import { createFixcycleStore } from '../state/store.js';
import type { Output } from './output.js';
import { userError } from './run.js';

export type TeamCommandOptions = Omit<TeamRunOptions, 'emit' | 'signal' | 'choose'> & { headless: boolean; json: boolean };

/** Keys while team runs: quitting stops it (resumable with --continue); approval and rollback belong to `run`. */
function teamControls(abort: AbortController): LoopControls {
  return {
    approve: () => 'nothing to approve in team testing',
    requestRollback: () => 'nothing to roll back in team testing',
    togglePause: () => false,
    stop: () => abort.abort(),
  };
}

/** Shows the detected pipeline with the alternatives; Enter accepts, t / s / c switches. */
async function askPipeline(out: Output, detected: PipelineName, why: string): Promise<PipelineName> {
  out.stdout(`fixcycle team: ${detected} pipeline (${why}): ${PIPELINE_STAGES[detected]}`);
  for (const p of PIPELINES) out.stdout(`  [${p[0]}] ${p}${p === detected ? ' (detected)' : ''}: ${PIPELINE_STAGES[p]}`);
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    const answer = (await rl.question('Enter to accept, or t / s / c to switch: ')).trim().toLowerCase();
    return PIPELINES.find((p) => answer && p.startsWith(answer)) ?? detected;
  } finally {
    rl.close();
  }
}

/** `fixcycle team`: progress as one line per task transition (or NDJSON events with --json). */
export async function runTeamCommand(options: TeamCommandOptions, out: Output): Promise<number> {
  const interactive = !options.headless && !options.json && Boolean(process.stdout.isTTY && process.stdin.isTTY);
  const abort = new AbortController();
  const store = createFixcycleStore();
  let tui: { waitUntilExit(): Promise<void>; unmount(): void } | null = null;
  let starting: Promise<void> | null = null;
  // The TUI starts once the pipeline is chosen (the choice itself is asked on the plain terminal).
  const startScreen = (): Promise<void> =>
    (starting ??= (async () => {
      const { importTui } = await import('../tui/load.js');
      const { startTui } = await importTui(() => import('../tui/start.js'));
      tui = startTui({ store, controls: teamControls(abort), title: 'fixcycle team' });
      void tui.waitUntilExit().then(() => abort.abort());
    })());
  const emit = (event: EngineEvent): void => {
    store.getState().apply(event);
    if (interactive) {
      if (event.type === 'team-pipeline') void startScreen();
      if (starting) return;
    }
    if (event.type === 'team-pipeline' && event.acceptedBy === 'headless default' && !options.json) out.stderr('fixcycle team: not interactive and no -y: accepting the detected pipeline (pass --pipeline to choose another)');
    if (options.json) out.stdout(JSON.stringify(event));
    else {
      const line = plainLine(event);
      if (line) out.stdout(line);
    }
  };
  let signals = 0;
  const onSignal = (): void => {
    if (++signals === 1) {
      if (!interactive) out.stderr('fixcycle: stopping; the session stays resumable with `fixcycle team --continue` (press Ctrl-C again to quit at once)');
      abort.abort();
    } else process.exit(EXIT.interrupted);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    const code = await runTeam({ ...options, emit, signal: abort.signal, ...(interactive ? { choose: (d: PipelineName, why: string) => askPipeline(out, d, why) } : {}) });
    if (starting) await starting;
    const screen = tui as { waitUntilExit(): Promise<void> } | null;
    if (screen) await screen.waitUntilExit();
    return code;
  } catch (error) {
    (tui as { unmount(): void } | null)?.unmount();
    const message = error instanceof CycleError || error instanceof TasksCsvError ? error.message : userError(error);
    if (!message) throw error;
    out.stderr(`fixcycle: ${message}`);
    return EXIT.usage;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
