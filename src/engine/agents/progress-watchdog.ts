import type { AgentActivity, Progress } from './agent.js';

/** While a tool the model called runs, this long without progress is a stall (a test command may take minutes). */
export const DEFAULT_TOOL_STALL_MS = 300_000;

/** The model at work, no tool call opened or closed. */
export const MODEL_STEP: Progress = { toolsStarted: 0, toolsEnded: 0 };

/**
 * The progress an adapter's activities show when it has no `progress` reader of its own: text, usage and tool
 * activities are the model's; retries and errors are the CLI's. (Such an adapter cannot say when a tool ends.)
 */
export function progressOfActivities(activities: readonly AgentActivity[]): Progress | null {
  return activities.some((a) => a.kind === 'text' || a.kind === 'usage' || a.kind === 'tool') ? MODEL_STEP : null;
}

export interface ProgressWatchdog {
  signal: AbortSignal;
  /** The CLI printed a line: the first one says it is up (a busy machine may take 20 s to start a CLI), and the limit starts again once. */
  line(): void;
  /** A line showed progress: the limit starts again (the tool limit while a tool call is open). */
  progress(step: Progress): void;
  stalled(): boolean;
  /** The limit that ran out, for the detail line. */
  limitMs(): number;
  giveUp(): void;
  stop(): void;
}

/**
 * Aborts when the model has made no progress for `modelMs` (or `toolMs` while a tool call it made is open),
 * counted from the CLI's first line (or its start, when it prints nothing). Only `progress()` resets it after
 * that: a CLI's lines about its own retries and connections keep no call alive.
 */
export function progressWatchdog(
  modelMs: number | undefined,
  toolMs: number,
  outer: AbortSignal | undefined,
): ProgressWatchdog {
  const controller = new AbortController();
  let stalled = false;
  let openTools = 0;
  let up = false;
  let timer: NodeJS.Timeout | undefined;
  const limit = (): number => (openTools > 0 ? toolMs : (modelMs ?? 0));
  const arm = (): void => {
    if (!modelMs) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      stalled = true;
      controller.abort();
    }, limit());
  };
  const onOuter = (): void => controller.abort();
  outer?.addEventListener('abort', onOuter, { once: true });
  if (outer?.aborted) controller.abort();
  arm();
  return {
    signal: controller.signal,
    line() {
      if (up) return;
      up = true;
      arm();
    },
    progress(step) {
      openTools = Math.max(0, openTools + step.toolsStarted - step.toolsEnded);
      arm();
    },
    stalled: () => stalled,
    limitMs: limit,
    giveUp: () => controller.abort(),
    stop() {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onOuter);
    },
  };
}
