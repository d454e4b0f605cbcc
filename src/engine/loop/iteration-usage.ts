import { formatUsage } from '../agents/activity-line.js';

/** Tokens and cost of one iteration's agent calls, where the CLIs reported them. */
export interface IterationUsage {
  tokens?: number;
  costUsd?: number;
}

/** Adds up agent-calls.jsonl by iteration: calls without tokens or cost add nothing. */
export function usageByIteration(calls: readonly Record<string, unknown>[]): Map<number, IterationUsage> {
  const byIteration = new Map<number, IterationUsage>();
  for (const call of calls) {
    const iteration = Number(call.iteration);
    const tokens = typeof call.tokens === 'number' ? call.tokens : undefined;
    const cost = typeof call.cost_usd === 'number' ? call.cost_usd : undefined;
    if (!Number.isFinite(iteration) || (tokens === undefined && cost === undefined)) continue;
    const sofar = byIteration.get(iteration) ?? {};
    byIteration.set(iteration, {
      ...(tokens !== undefined || sofar.tokens !== undefined ? { tokens: (sofar.tokens ?? 0) + (tokens ?? 0) } : {}),
      ...(cost !== undefined || sofar.costUsd !== undefined ? { costUsd: (sofar.costUsd ?? 0) + (cost ?? 0) } : {}),
    });
  }
  return byIteration;
}

/** The usage cell of the summary's iteration table: `480 tokens · $0.02`, or `-` when nothing was reported. */
export function usageCell(usage: IterationUsage | undefined): string {
  return (usage && formatUsage(usage.tokens, usage.costUsd)) || '-';
}
