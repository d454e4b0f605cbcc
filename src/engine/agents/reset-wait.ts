import type { EventSink } from '../events.js';
import type { AgentReset, ChainHooks } from './chain.js';

/**
 * 15 min: a per-minute or per-hour limit resets within it, and fixcycle's own back-off (5, then 10 min) is
 * waited out; a reset hours away (a daily quota) is not worth holding the session for.
 */
export const MAX_RESET_WAIT_MS = 15 * 60_000;

export interface ResetWaitOptions {
  emit: EventSink;
  iteration: number;
  /** The longest single wait; default MAX_RESET_WAIT_MS. */
  maxWaitMs?: number;
  /** Why no more agent calls may be made (budget spent), or null. */
  budgetExceeded?: () => string | null;
  now?: () => number;
}

/** "42 s", "3 min 5 s", "2 h 10 min": how long, as the countdown and the reasons say it. */
export function humanDuration(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min${s % 60 ? ` ${s % 60} s` : ''}`;
  const m = Math.floor(s / 60);
  return `${Math.floor(m / 60)} h${m % 60 ? ` ${m % 60} min` : ''}`;
}

/** The local wall-clock time, `06:12:30`. */
export function wallClock(at: number): string {
  return new Date(at).toTimeString().slice(0, 8);
}

/** Sleeps `ms`; false when `signal` aborted first. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (ok: boolean): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve(ok);
    };
    const onAbort = (): void => done(false);
    const timer = setTimeout(() => done(true), ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * ChainHooks.waitForReset: with no other agent to ask, fixcycle waits out the reset time it read (an engine
 * `wait` event starts the countdown on screen and prints the headless line), then the chain asks again.
 * It does not wait past MAX_RESET_WAIT_MS or a spent budget, and a stop ends the wait at once.
 */
export function makeResetWaiter(options: ResetWaitOptions): NonNullable<ChainHooks['waitForReset']> {
  const now = options.now ?? Date.now;
  const max = options.maxWaitMs ?? MAX_RESET_WAIT_MS;
  return async (agent: string, reset: AgentReset, signal?: AbortSignal) => {
    const ms = Math.max(0, reset.at - now());
    const kind = reset.announced ? 'the reset time it announced' : "fixcycle's back-off (it gave no reset time)";
    if (ms > max) {
      return {
        waited: false,
        reason: `${agent} is rate-limited until ${wallClock(reset.at)} (in ${humanDuration(ms)}, ${kind}), longer than fixcycle waits (${humanDuration(max)}): add another agent to the chain, or resume the session later`,
      };
    }
    const budget = options.budgetExceeded?.();
    if (budget) return { waited: false, reason: budget };
    const reason = `${agent}'s rate limit to reset`;
    options.emit({ type: 'wait', iteration: options.iteration, agent, untilMs: reset.at, waitMs: ms, reason });
    options.emit({
      type: 'output',
      lines: [`waiting ${humanDuration(ms)} for ${reason} (until ${wallClock(reset.at)}, ${kind})`],
    });
    const finished = await sleep(ms, signal);
    options.emit({ type: 'wait', iteration: options.iteration, agent, untilMs: null, reason });
    return finished
      ? { waited: true }
      : { waited: false, reason: 'stopped by the user while waiting for a rate limit to reset' };
  };
}
