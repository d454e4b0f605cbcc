import type { Iteration } from '../engine/session/schema.js';
import type { Strategy } from '../engine/types.js';

/** How an iteration ended, in the words of the screen. */
export type RowOutcome =
  | 'running'
  | 'improved'
  | 'rolled-back'
  | 'stuck'
  | 'degraded'
  | 'rejected'
  | 'no-change'
  | 'success'
  | 'partial'
  | 'failed'
  | 'pending';

/** One line of the iterations table, derived from iteration-state.json's iterations[]. */
export interface IterationRow {
  iteration: number;
  strategy?: Strategy;
  /** Pass rate after the iteration's re-test, in percent. */
  passRate?: number;
  /** Change of the pass rate from the iteration before, in points. */
  delta?: number;
  passed?: number;
  failed?: number;
  durationMs?: number;
  /** The agent whose fix was used. */
  agent?: string;
  /** True when an earlier agent of the chain failed and a later one took over. */
  fallback: boolean;
  /** Agents of the chain tried in this iteration (all failed when the iteration is degraded). */
  tried: number;
  outcome: RowOutcome;
  /** The outcome as a person reads it: `regression rolled back`, `stuck`... */
  outcomeLabel: string;
  /** Short sha of the fix commit. */
  commit?: string;
  /** Tokens and cost of the iteration's agent calls, where the CLIs reported them. */
  tokens?: number;
  costUsd?: number;
}

const OUTCOMES: Record<string, [RowOutcome, string]> = {
  improved: ['improved', 'improved'],
  regressed_rolled_back: ['rolled-back', 'regression rolled back'],
  rolled_back: ['rolled-back', 'rolled back by user'],
  stuck: ['stuck', 'stuck'],
  degraded: ['degraded', 'degraded'],
  rejected: ['rejected', 'rejected'],
  no_change: ['no-change', 'no change'],
  success: ['success', 'success'],
  partial_success: ['partial', 'partial success'],
  failed: ['failed', 'failed'],
  in_progress: ['running', 'running'],
};

function durationOf(it: Iteration): number | undefined {
  if (it.duration_ms !== undefined) return it.duration_ms;
  if (!it.started_at || !it.completed_at) return undefined;
  const ms = Date.parse(it.completed_at) - Date.parse(it.started_at);
  return Number.isFinite(ms) && ms >= 0 ? ms : undefined;
}

function outcomeOf(it: Iteration, isLast: boolean, stopped: string | undefined): [RowOutcome, string] {
  if (it.degraded && !it.result) return OUTCOMES['degraded']!;
  // An iteration the session's end left unfinished (an interrupt: it resumes from there) runs no more.
  const unfinished = (!it.result || it.result === 'in_progress') && isLast && !it.completed_at;
  if (unfinished && stopped) return ['pending', stopped];
  if (it.result) return OUTCOMES[it.result] ?? ['pending', it.result.replace(/_/g, ' ')];
  return unfinished ? OUTCOMES['in_progress']! : ['pending', '—'];
}

/**
 * Counts that belong to the same run as `rate`: a rolled-back iteration can keep its pre-rollback rate with the
 * counts of the run after the rollback. Then the counts of the rate on the same suite size are shown, or none when
 * no whole count gives that rate: never one run's rate beside another's counts.
 */
export function countsOfRate(
  rate: number | undefined,
  passed: number | undefined,
  failed: number | undefined,
): { passed?: number; failed?: number } {
  if (rate === undefined || passed === undefined || failed === undefined) return { passed, failed };
  const total = passed + failed;
  // 0.05: rates are stored rounded to one decimal.
  const agrees = (p: number) => total > 0 && Math.abs((p / total) * 100 - rate) <= 0.05 + 1e-9;
  if (total === 0 || agrees(passed)) return { passed, failed };
  const own = Math.round((rate * total) / 100);
  return agrees(own) ? { passed: own, failed: total - own } : {};
}

/** The table's rows, oldest first, with each pass rate's change from the one before. */
export function iterationRows(
  iterations: readonly Iteration[],
  usage: Readonly<Record<number, { tokens?: number; costUsd?: number }>> = {},
  /** Set once the session has ended (`interrupted`, `stopped`): what its unfinished last iteration reads. */
  stopped?: string,
): IterationRow[] {
  let previous: number | undefined;
  return iterations.map((it, index) => {
    const before = it.pass_rate_before ?? previous;
    const passRate = it.pass_rate;
    const delta =
      passRate !== undefined && before !== undefined ? Math.round((passRate - before) * 100) / 100 : undefined;
    if (passRate !== undefined && it.result !== 'regressed_rolled_back' && it.result !== 'rolled_back')
      previous = passRate;
    else if (passRate !== undefined && it.pass_rate_before !== undefined) previous = it.pass_rate_before;
    const tried = it.agents_tried ?? [];
    // A degraded iteration has no agent whose work was used, only the ones that failed.
    const agent = it.agent ?? (it.degraded ? undefined : tried.at(-1));
    const [outcome, outcomeLabel] = outcomeOf(it, index === iterations.length - 1, stopped);
    // failed_tests is filled in (empty) even before the re-test: count it only once there is a pass rate.
    const counts = countsOfRate(
      passRate,
      it.test_results?.passed,
      it.test_results?.failed ?? (passRate !== undefined ? it.failed_tests?.length : undefined),
    );
    return {
      iteration: it.iteration,
      strategy: it.strategy,
      passRate,
      delta,
      ...counts,
      durationMs: durationOf(it),
      agent,
      fallback: agent !== undefined && tried.length > 1 && tried[0] !== agent,
      tried: tried.length,
      outcome,
      outcomeLabel,
      commit: it.commit ? it.commit.slice(0, 7) : undefined,
      ...usage[it.iteration],
    };
  });
}

/** `82%`, `82.5%`: whole numbers stay whole, the rest keep one decimal. */
export function formatPercent(value: number | undefined): string {
  if (value === undefined) return '—';
  return `${Number.isInteger(value) ? value : value.toFixed(1)}%`;
}

/** `+7`, `−3.5`, `±0`: the change in points, signed so it reads without color. */
export function formatDelta(value: number | undefined): string {
  if (value === undefined) return '';
  if (value === 0) return '±0';
  const abs = Math.abs(value);
  return `${value > 0 ? '+' : '−'}${Number.isInteger(abs) ? abs : abs.toFixed(1)}`;
}

/** `480 tok`, `12.3k tok $0.04`: an iteration's usage in a table cell; empty when nothing was reported. */
export function formatUsageShort(tokens: number | undefined, costUsd: number | undefined): string {
  const parts: string[] = [];
  if (tokens !== undefined)
    parts.push(
      `${tokens < 1000 ? tokens : tokens < 999_500 ? `${(tokens / 1000).toFixed(tokens < 9950 ? 1 : 0)}k` : `${(tokens / 1e6).toFixed(1)}M`} tok`,
    );
  if (costUsd !== undefined && costUsd > 0) parts.push(`$${costUsd < 0.01 ? '<0.01' : costUsd.toFixed(2)}`);
  return parts.join(' ');
}

/** `850ms`, `42s`, `3m 05s`, `1h 02m`. */
export function formatDuration(ms: number | undefined): string {
  if (ms === undefined) return '—';
  if (ms < 1000) return `${Math.round(ms)}ms`;
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, '0')}s`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h}h ${String(m % 60).padStart(2, '0')}m`;
  return `${Math.floor(h / 24)}d ${h % 24}h`;
}

/** The iteration that `r` would roll back: the newest one with a fix commit that is still in place. */
export function lastCommittedIteration(iterations: readonly Iteration[]): Iteration | undefined {
  for (let i = iterations.length - 1; i >= 0; i--) {
    const it = iterations[i]!;
    if (it.commit && it.result !== 'regressed_rolled_back' && !it.rollback_commit) return it;
  }
  return undefined;
}
