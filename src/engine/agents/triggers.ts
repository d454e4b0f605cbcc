import { existsSync, realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { messageSimilarity } from '../decisions/similarity.js';
import type { FixHistoryEntry, FixPlan } from '../session/schema.js';
import type { AgentCall } from './agent.js';
import type { ResolvedAgent } from './run-agent.js';

/** The design's threshold: an analysis under 100 words is brief (a warning; real models answer tersely). */
export const MIN_ANALYSIS_WORDS = 100;
/** The design's "same root cause identified 3+ consecutive times": this iteration and the two before. */
export const STUCK_ANALYSIS_RUN = 3;
/** 0.85: two wordings of one root cause; "add returns a string" vs "add returns NaN" stay apart. */
export const SAME_CAUSE_SIMILARITY = 0.85;

const PLAN_KEYS =
  /"(root_causes|modification_points|affected_tests|confidence_score|approach|criticality|tests_are_wrong)"/g;

/** Words of the analysis: the agent's whole final message (prose and the plan's texts), the plan's JSON keys left out. */
export function analysisWords(finalText: string, plan: FixPlan): number {
  const text = finalText.trim()
    ? finalText.replace(PLAN_KEYS, ' ')
    : [...plan.root_causes, plan.approach, ...plan.modification_points].join(' ');
  return text.match(/[\p{L}\p{N}][\p{L}\p{N}_'’-]*/gu)?.length ?? 0;
}

/** A path-like word inside prose: with a folder (`lib/parse`) or an extension (`calc.js`). */
const PATH_IN_TEXT =
  /(?:^|[\s`'"(])((?:[\w@.-]+\/)+[\w@.-]+|[\w@-][\w@.-]*\.[A-Za-z][A-Za-z0-9]{0,5})(?=$|[\s`'"),;:])/;

/**
 * A modification point as `file:function:lines` (or `file:lines`, `file:function`, `file`), or null when it
 * names no file. Prose around a path ("src/calc.js, the add function") keeps the path and the rest as the place.
 */
export function parseModificationPoint(point: string): { file: string; place: string } | null {
  const cleaned = point.trim().replace(/^[`'"]+|[`'"]+$/g, '');
  const m = /^(.+?\.[A-Za-z0-9]+|[^:\s]+\/[^:\s]+)(?::(.*))?$/.exec(cleaned);
  if (m) return { file: m[1]!, place: (m[2] ?? '').replace(/^:+|:+$/g, '').trim() };
  const inText = PATH_IN_TEXT.exec(cleaned);
  if (!inText || /^(e\.g|i\.e|etc)\.?$/i.test(inText[1]!)) return null;
  const file = inText[1]!.replace(/\.$/, '');
  const place = cleaned
    .replace(inText[1]!, ' ')
    .replace(/[`'"]/g, '')
    .replace(/\s+/g, ' ')
    .replace(/ ([,;])/g, '$1')
    .replace(/^[\s:,;()-]+|[\s:,;()-]+$/g, '')
    .trim();
  return { file, place };
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

/**
 * How concrete the plan's modification points are, for choosing between plans: 3 a place (function or
 * lines) in an existing file, 2 an existing file, 1 a file that is not in the repository, 0 no file at all.
 */
export function concreteness(repo: string, plan: FixPlan): number {
  let best = 0;
  for (const point of plan.modification_points.map(parseModificationPoint)) {
    if (!point) continue;
    const score = existsInRepo(repo, point.file) ? (point.place ? 3 : 2) : 1;
    best = Math.max(best, score);
  }
  return best;
}

/**
 * What is vague about the modification points, or null. Soft: a file path alone is a concrete point (real
 * models often give just the file); only naming no file at all is "general suggestions".
 */
export function concretenessWarning(repo: string, plan: FixPlan): string | null {
  const parsed = plan.modification_points.map(parseModificationPoint);
  const named = parsed.filter((p): p is { file: string; place: string } => p !== null);
  if (named.length === 0)
    return `no file named, only general suggestions: ${plan.modification_points.slice(0, 2).join('; ')}`;
  const missing = named.filter((p) => !existsInRepo(repo, p.file));
  if (missing.length === named.length)
    return `${missing.map((p) => p.file).join(', ')} ${missing.length > 1 ? 'do' : 'does'} not exist in the repository`;
  if (!named.some((p) => p.place))
    return `modification points name no function or lines: ${named.map((p) => p.file).join(', ')}`;
  return null;
}

/**
 * The root cause this plan shares with each of the previous STUCK_ANALYSIS_RUN - 1 iterations, or null.
 * Only consecutive iterations count: an iteration without an analysis breaks the run.
 */
export function repeatedRootCause(
  plan: FixPlan,
  history: readonly FixHistoryEntry[],
  iteration: number,
): string | null {
  const byIteration = new Map<number, string[]>();
  for (const entry of history)
    byIteration.set(entry.iteration, [...(byIteration.get(entry.iteration) ?? []), ...entry.root_causes]);
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
  /** The repository root, where modification points should exist. */
  repo: string;
  /** The iteration being analysed. */
  iteration: number;
  /** fix-history.json so far. */
  history: readonly FixHistoryEntry[];
  /** Agents whose plans are not judged (the manual agent, whose plan is the failures themselves). */
  exempt?: readonly string[];
}

/** The soft signals on a valid plan: shown and recorded, never a reason to throw the plan away. */
export interface PlanJudgement {
  /** One line each: a brief analysis, vague modification points, a repeated root cause. */
  warnings: string[];
  /** See `concreteness`. */
  concreteness: number;
  /** The root cause named STUCK_ANALYSIS_RUN iterations in a row, or null. */
  repeatedCause: string | null;
}

/**
 * The design's plan quality signals, as ChainHooks.judgePlan: an analysis under 100 words, modification points
 * without function or lines (or without a file), the same root cause three iterations in a row. They are soft:
 * the chain asks another agent when one is free, and otherwise uses the best plan with these warnings.
 * (No plan, a plan that fails the schema and confidence < 0.4 are hard failures, judged by the chain itself.)
 */
export function makePlanJudge(ctx: PlanJudgeContext): (plan: FixPlan, call: AgentCall) => PlanJudgement {
  return (plan, call) => {
    const level = concreteness(ctx.repo, plan);
    if (ctx.exempt?.includes(call.agent)) return { warnings: [], concreteness: level, repeatedCause: null };
    const warnings: string[] = [];
    const words = analysisWords(call.finalText, plan);
    if (words < MIN_ANALYSIS_WORDS) warnings.push(`brief analysis: ${words} words < ${MIN_ANALYSIS_WORDS}`);
    const vague = concretenessWarning(ctx.repo, plan);
    if (vague) warnings.push(vague);
    const repeated = repeatedRootCause(plan, ctx.history, ctx.iteration);
    if (repeated)
      warnings.push(
        `same root cause ${STUCK_ANALYSIS_RUN} iterations in a row (stuck analysis): ${repeated.slice(0, 160)}`,
      );
    return { warnings, concreteness: level, repeatedCause: repeated };
  };
}

/** The agents of a chain whose plans are not judged: those without a CLI (manual), for PlanJudgeContext.exempt. */
export function unjudgedAgents(agents: readonly ResolvedAgent[]): string[] {
  return agents.filter((a) => a.adapter.run !== undefined).map((a) => a.spec.name);
}
