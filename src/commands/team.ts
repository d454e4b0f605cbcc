import type { EngineEvent, LoopControls } from '../engine/events.js';
import { EXIT } from '../engine/loop/completion-step.js';
import type { TeamChoice } from '../engine/team/events.js';
import { runTeam, type TeamRunOptions } from '../engine/team/pipeline.js';
import { PIPELINES, type PipelineName } from '../engine/team/scope.js';
import { TasksCsvError } from '../engine/team/tasks-csv.js';
import { CycleError } from '../engine/team/waves.js';
import { plainLine } from '../headless/plain-reporter.js';
import { createFixcycleStore } from '../state/store.js';
import type { Output } from './output.js';
import { userError } from './run.js';

export type TeamCommandOptions = Omit<TeamRunOptions, 'emit' | 'signal' | 'choose'> & {
  headless: boolean;
  json: boolean;
};

/** The pipeline offered on screen before the run starts: t / s / c switch it, enter starts it (resolves the choice). */
class PipelineOffer {
  private offer: TeamChoice | null = null;
  private pick: ((p: PipelineName | null) => void) | null = null;
  constructor(private readonly show: (offer: TeamChoice) => void) {}
  ask(offer: TeamChoice): Promise<PipelineName | null> {
    this.offer = offer;
    return new Promise((resolve) => (this.pick = resolve));
  }
  switchTo(name: string): string | null {
    if (!this.offer || !this.pick) return 'The pipeline has started: it can be switched only before';
    if (!(PIPELINES as readonly string[]).includes(name))
      return `No ${name} pipeline: targeted, standard or comprehensive`;
    this.offer = { ...this.offer, chosen: name };
    this.show(this.offer);
    return null;
  }
  start(): string | null {
    if (!this.offer || !this.pick) return 'The pipeline has started already';
    this.settle(this.offer.chosen as PipelineName);
    return null;
  }
  settle(choice: PipelineName | null): void {
    const pick = this.pick;
    this.pick = null;
    pick?.(choice);
  }
}

/** Keys while team runs: quitting stops it (resumable with --continue); approval and rollback belong to `run`. */
function teamControls(abort: AbortController, offer: PipelineOffer): LoopControls {
  return {
    approve: () => 'nothing to approve in team testing',
    requestRollback: () => 'nothing to roll back in team testing',
    togglePause: () => false,
    stop: () => abort.abort(),
    choosePipeline: (name) => offer.switchTo(name),
    startPipeline: () => offer.start(),
  };
}

/** `fixcycle team`: progress as one line per task transition (or NDJSON events with --json). */
export async function runTeamCommand(options: TeamCommandOptions, out: Output): Promise<number> {
  const interactive = !options.headless && !options.json && Boolean(process.stdout.isTTY && process.stdin.isTTY);
  const abort = new AbortController();
  const store = createFixcycleStore();
  let tui: { waitUntilExit(): Promise<void>; unmount(): void } | null = null;
  let starting: Promise<void> | null = null;
  const offer = new PipelineOffer((o) => store.getState().apply({ type: 'team-choice', ...o }));
  abort.signal.addEventListener('abort', () => offer.settle(null));
  // The TUI starts with the pipeline offered (or, with -y, --pipeline or --continue, once it is known).
  const startScreen = (): Promise<void> =>
    (starting ??= (async () => {
      const { importTui } = await import('../tui/load.js');
      const { startTui } = await importTui(() => import('../tui/start.js'));
      tui = startTui({ store, controls: teamControls(abort, offer), title: 'fixcycle team' });
      void tui.waitUntilExit().then(() => abort.abort());
    })());
  const emit = (event: EngineEvent): void => {
    store.getState().apply(event);
    if (interactive) {
      if (event.type === 'team-pipeline' || event.type === 'team-choice') void startScreen();
      if (starting) return;
    }
    if (event.type === 'team-pipeline' && event.acceptedBy === 'headless default' && !options.json)
      out.stderr(
        'fixcycle team: not interactive and no -y: accepting the detected pipeline (pass --pipeline to choose another)',
      );
    if (options.json) out.stdout(JSON.stringify(event));
    else {
      const line = plainLine(event);
      if (line) out.stdout(line);
    }
  };
  let signals = 0;
  const onSignal = (): void => {
    if (++signals === 1) {
      if (!interactive)
        out.stderr(
          'fixcycle: stopping; the session stays resumable with `fixcycle team --continue` (press Ctrl-C again to quit at once)',
        );
      abort.abort();
    } else process.exit(EXIT.interrupted);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    const code = await runTeam({
      ...options,
      emit,
      signal: abort.signal,
      ...(interactive ? { choose: (o: TeamChoice) => offer.ask(o) } : {}),
    });
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
