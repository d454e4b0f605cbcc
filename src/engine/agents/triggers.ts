import { existsSync, realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { messageSimilarity } from '../decisions/similarity.js';
import type { FixHistoryEntry, FixPlan } from '../session/schema.js';
import type { AgentCall } from './agent.js';
import type { ResolvedAgent } from './run-agent.js';

/** The design's threshold: an analysis under 100 words is too brief to be trusted. */
export const MIN_ANALYSIS_WORDS = 100;
/** The design's "same root cause identified 3+ consecutive times": this iteration and the two before. */
export const STUCK_ANALYSIS_RUN = 3;
/** 0.85: two wordings of one root cause; "add returns a string" vs "add returns NaN" stay apart. */
export const SAME_CAUSE_SIMILARITY = 0.85;

const PLAN_KEYS = /"(root_causes|modification_points|affected_tests|confidence_score|approach|criticality|tests_are_wrong)"/g;

/** Words of the analysis: the agent's whole final message (prose and the plan's texts), the plan's JSON keys left out. */
export function analysisWords(finalText: string, plan: FixPlan): number {
  const text = finalText.trim() ? finalText.replace(PLAN_KEYS, ' ') : [...plan.root_causes, plan.approach, ...plan.modification_points].join(' ');
  return text.match(/[\p{L}\p{N}][\p{L}\p{N}_'’-]*/gu)?.length ?? 0;
}

/** A modification point as `file:function:lines` (or `file:lines`, `file:function`), or null when it names no file. */
export function parseModificationPoint(point: string): { file: string; place: string } | null {
  const cleaned = point.trim().replace(/^[`'"]+|[`'"]+$/g, '');
  const m = /^(.+?\.[A-Za-z0-9]+|[^:\s]+\/[^:\s]+)(?::(.*))?$/.exec(cleaned);
  if (!m) return null;
  return { file: m[1]!, place: (m[2] ?? '').replace(/^:+|:+$/g, '').trim() };
}

/** Is `file` an existing file inside the repository (symlinks resolved)? */
function existsInRepo(repo: string, file: string): boolean {
  const path = isAbsolute(file) ? file : resolve(repo, file);
  if (!existsSync(path)) return false;
  try {
    const rel = relative(realpathSync(repo), realpathSync(path));
    return !rel.startsWith('..') && !isAbsolute(rel);
  } catch {
    return false;
  }
}

/** Why no modification point is concrete (a place in an existing file of the repository), or null. */
export function concretenessObjection(repo: string, plan: FixPlan): string | null {
  const parsed = plan.modification_points.map(parseModificationPoint);
  if (parsed.some((p) => p && p.place && existsInRepo(repo, p.file))) return null;
  const named = parsed.filter((p): p is { file: string; place: string } => p !== null);
  if (named.length === 0) return `no concrete modification point (file:function:lines), only general suggestions: ${plan.modification_points.slice(0, 2).join('; ')}`;
  const missing = named.find((p) => !existsInRepo(repo, p.file));
  if (missing) return `no concrete modification point: ${missing.file} does not exist in the repository`;
  return `no concrete modification point: ${named[0]!.file} names no function or lines (use file:function:lines)`;
}

/**
 * The root cause this plan shares with each of the previous STUCK_ANALYSIS_RUN - 1 iterations, or null.
 * Only consecutive iterations count: an iteration without an analysis breaks the run.
 */
export function repeatedRootCause(plan: FixPlan, history: readonly FixHistoryEntry[], iteration: number): string | null {
  const byIteration = new Map<number, string[]>();
  for (const entry of history) byIteration.set(entry.iteration, [...(byIteration.get(entry.iteration) ?? []), ...entry.root_causes]);
  for (const cause of plan.root_causes) {
    let run = 1;
    for (let i = iteration - 1; i >= iteration - (STUCK_ANALYSIS_RUN - 1); i--) {
      const earlier = byIteration.get(i) ?? [];
      if (!earlier.some((c) => messageSimilarity(c, cause) >= SAME_CAUSE_SIMILARITY)) break;
      run++;
    }
    if (run >= STUCK_ANALYSIS_RUN) return cause;
  }
  return null;
}

/** What the plan judge needs to know about the session. */
export interface PlanJudgeContext {
  /** The repository root, where modification points must exist. */
  repo: string;
  /** The iteration being analysed. */
  iteration: number;
  /** fix-history.json so far. */
  history: readonly FixHistoryEntry[];
  /** Agents whose plans are not judged (the manual agent, whose plan is the failures themselves). */
  exempt?: readonly string[];
}

/**
 * The design's quality fallback triggers, as ChainHooks.judgePlan: an analysis under 100 words, no concrete
 * modification point in an existing file, or the same root cause three iterations in a row. (Missing fields and
 * confidence < 0.4 are judged by the chain itself.) Returns why the plan is not good enough, or null.
 */
export function makePlanJudge(ctx: PlanJudgeContext): (plan: FixPlan, call: AgentCall) => string | null {
  return (plan, call) => {
    if (ctx.exempt?.includes(call.agent)) return null;
    const words = analysisWords(call.finalText, plan);
    if (words < MIN_ANALYSIS_WORDS) return `analysis too brief: ${words} words < ${MIN_ANALYSIS_WORDS}`;
    const vague = concretenessObjection(ctx.repo, plan);
    if (vague) return vague;
    const repeated = repeatedRootCause(plan, ctx.history, ctx.iteration);
    if (repeated) return `same root cause ${STUCK_ANALYSIS_RUN} iterations in a row (stuck analysis): ${repeated.slice(0, 160)}`;
    return null;
  };
}

/** The agents of a chain whose plans are not judged: those without a CLI (manual), for PlanJudgeContext.exempt. */
export function unjudgedAgents(agents: readonly ResolvedAgent[]): string[] {
  return agents.filter((a) => a.adapter.run !== undefined).map((a) => a.spec.name);
}
