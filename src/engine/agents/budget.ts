import type { AgentCall } from './agent.js';

/** Limits of `--budget`; each is optional and any one reached stops the loop. */
export interface BudgetLimits {
  /** Agent calls, every role and every agent of the chain counted. */
  calls?: number;
  /** Minutes spent in agent calls (their durations added up, not the tests' time). */
  minutes?: number;
  /** US dollars, as far as the CLIs report a cost (claude, opencode). */
  usd?: number;
}

export type BudgetParse = { ok: true; limits: BudgetLimits } | { ok: false; error: string };

const HINT = 'use e.g. "20 calls", "30m", "1h", "$2", or several joined by commas ("20 calls, $2")';

/** Parses `--budget "20 calls, 30m, $2"`. */
export function parseBudget(text: string): BudgetParse {
  const limits: BudgetLimits = {};
  const parts = text
    .split(/,|\band\b/)
    .map((p) => p.trim())
    .filter(Boolean);
  if (parts.length === 0) return { ok: false, error: `--budget is empty: ${HINT}` };
  for (const part of parts) {
    const usd = /^\$\s*(\d+(?:\.\d+)?)$|^(\d+(?:\.\d+)?)\s*(?:usd|\$|dollars?)$/i.exec(part);
    const calls = /^(\d+)\s*calls?$/i.exec(part);
    const time = /^(\d+(?:\.\d+)?)\s*(m|min|mins|minutes?|h|hr|hrs|hours?)$/i.exec(part);
    if (usd) limits.usd = Number(usd[1] ?? usd[2]);
    else if (calls) limits.calls = Number(calls[1]);
    else if (time) limits.minutes = Number(time[1]) * (time[2]!.toLowerCase().startsWith('h') ? 60 : 1);
    else return { ok: false, error: `--budget "${text}": cannot read "${part}"; ${HINT}` };
  }
  if (Object.values(limits).some((v) => !(v > 0)))
    return { ok: false, error: `--budget "${text}": a limit must be above 0; ${HINT}` };
  return { ok: true, limits };
}

/** What the agents have spent so far. */
export interface BudgetSpent {
  calls: number;
  minutes: number;
  usd: number;
  /** Calls whose CLI reported a cost; the USD total covers only these. */
  costedCalls: number;
  tokens: number;
}

function round(n: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

/**
 * Tracks agent calls, minutes and reported USD against `--budget`. The loop asks `exceeded()` before each
 * agent call and stops cleanly (state saved, resumable) when it says why.
 */
export class Budget {
  private readonly total: BudgetSpent = { calls: 0, minutes: 0, usd: 0, costedCalls: 0, tokens: 0 };

  /** `previous`: the calls of the session so far (agent-calls.json), so a resumed session keeps counting. */
  constructor(
    readonly limits: BudgetLimits,
    previous: readonly Pick<AgentCall, 'durationMs' | 'costUsd' | 'tokens'>[] = [],
  ) {
    for (const call of previous) this.record(call);
  }

  /** Counts one finished call. */
  record(call: Pick<AgentCall, 'durationMs' | 'costUsd' | 'tokens'>): void {
    this.total.calls += 1;
    this.total.minutes += call.durationMs / 60_000;
    if (call.costUsd !== undefined) {
      this.total.usd += call.costUsd;
      this.total.costedCalls += 1;
    }
    this.total.tokens += call.tokens ?? 0;
  }

  spent(): BudgetSpent {
    return { ...this.total, minutes: round(this.total.minutes, 2), usd: round(this.total.usd, 4) };
  }

  /** Why the budget is used up, or null while there is some left. */
  exceeded(): string | null {
    const { calls, minutes, usd } = this.limits;
    const s = this.spent();
    if (calls !== undefined && s.calls >= calls) return `budget reached: ${s.calls} of ${calls} agent calls`;
    if (minutes !== undefined && s.minutes >= minutes)
      return `budget reached: ${round(s.minutes, 1)} of ${minutes} agent minutes`;
    if (usd !== undefined && s.usd >= usd)
      return `budget reached: $${s.usd.toFixed(2)} of $${usd.toFixed(2)} (cost reported by ${s.costedCalls} of ${s.calls} calls)`;
    return null;
  }

  /** One line for the summary: what was spent, against which limits. */
  describe(): string {
    const s = this.spent();
    const of = (limit: number | undefined, unit = ''): string => (limit !== undefined ? ` of ${unit}${limit}` : '');
    const cost = s.costedCalls
      ? `, $${s.usd.toFixed(2)}${of(this.limits.usd, '$')} (reported by ${s.costedCalls} of ${s.calls} calls)`
      : this.limits.usd !== undefined
        ? ', no cost reported'
        : '';
    return `${s.calls}${of(this.limits.calls)} agent calls, ${round(s.minutes, 1)}${of(this.limits.minutes)} agent minutes${cost}${s.tokens ? `, ${s.tokens} tokens` : ''}`;
  }
}
