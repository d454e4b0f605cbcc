import { enclosingFunction, TOP_LEVEL, type FunctionSpan } from './functions.js';
import type { LineSpectrum } from './ochiai.js';
import type { SourceFrame } from './stack-frames.js';
import type { ChangedLines } from './change.js';
import type { EvidenceKind, Granularity, Suspect } from './types.js';
import { lineRanges } from '../gen/coverage/model.js';

/** How much each kind of evidence weighs: the change dominates, a stack frame beats being merely run. */
export const WEIGHTS: Record<EvidenceKind, number> = { change: 0.5, stack: 0.3, coverage: 0.2 };

export interface RankInput {
  spectrum: {
    lines: Map<string, LineSpectrum>;
    failedUnits: number;
    passedUnits: number;
    granularity: Granularity;
  } | null;
  frames: readonly SourceFrame[];
  changed: ChangedLines;
  changeBase?: string;
  /** Each candidate file's functions. */
  functions: Map<string, FunctionSpan[]>;
}

/** A line with the score of each kind of evidence on it. */
export interface ScoredLine {
  file: string;
  line: number;
  score: number;
  parts: Partial<Record<EvidenceKind, number>>;
}

const key = (file: string, line: number): string => `${file}:${line}`;
const UNIT = { test: 'tests', file: 'test files', run: 'runs' } as const;

/** Every line some evidence points at, scored (0..1), best first, ties by file and line. */
export function scoreLines(input: RankInput): ScoredLine[] {
  const lines = new Map<string, ScoredLine>();
  const at = (file: string, line: number): ScoredLine => {
    const k = key(file, line);
    let s = lines.get(k);
    if (!s) lines.set(k, (s = { file, line, score: 0, parts: {} }));
    return s;
  };
  for (const [k, spec] of input.spectrum?.lines ?? []) {
    const i = k.lastIndexOf(':');
    at(k.slice(0, i), Number(k.slice(i + 1))).parts.coverage = spec.score;
  }
  for (const frame of input.frames) {
    const s = at(frame.file, frame.line);
    s.parts.stack = Math.min(1, (s.parts.stack ?? 0) + frame.weight);
  }
  for (const [file, set] of input.changed) for (const line of set) at(file, line).parts.change = 1;
  for (const s of lines.values())
    s.score = (Object.entries(s.parts) as [EvidenceKind, number][]).reduce(
      (sum, [kind, v]) => sum + WEIGHTS[kind] * v,
      0,
    );
  return [...lines.values()].sort((a, b) => b.score - a.score || a.file.localeCompare(b.file) || a.line - b.line);
}

/**
 * One suspect per function: each kind of evidence at its strongest on the function's lines, combined by
 * WEIGHTS. Top-level code runs whenever its module loads, so coverage alone does not make it a suspect.
 * A changed function the failing tests never ran (where coverage measured its file) counts half.
 */
export function rankFunctions(input: RankInput, scored: readonly ScoredLine[]): Suspect[] {
  const groups = new Map<string, { file: string; span: FunctionSpan | null; lines: ScoredLine[] }>();
  for (const s of scored) {
    const span = enclosingFunction(input.functions.get(s.file) ?? [], s.line);
    if (span?.test || (!span && s.parts.stack === undefined && s.parts.change === undefined)) continue;
    const k = `${s.file}\0${span ? `${span.start}:${span.name}` : TOP_LEVEL}`;
    const g = groups.get(k) ?? { file: s.file, span, lines: [] };
    g.lines.push(s);
    groups.set(k, g);
  }
  const measuredFiles = new Set([...(input.spectrum?.lines.keys() ?? [])].map((k) => k.slice(0, k.lastIndexOf(':'))));
  const suspects: Suspect[] = [];
  for (const g of groups.values()) {
    const best = (kind: EvidenceKind): number => Math.max(0, ...g.lines.map((l) => l.parts[kind] ?? 0));
    const scores: Partial<Record<EvidenceKind, number>> = {};
    const coverage = g.span ? best('coverage') : 0;
    const stack = Math.min(
      1,
      g.lines.reduce((sum, l) => sum + (l.parts.stack ?? 0), 0),
    );
    let change = best('change');
    if (change > 0 && input.spectrum && coverage === 0 && measuredFiles.has(g.file)) change /= 2;
    if (coverage > 0) scores.coverage = round(coverage);
    if (stack > 0) scores.stack = round(stack);
    if (change > 0) scores.change = round(change);
    const score = WEIGHTS.coverage * coverage + WEIGHTS.stack * stack + WEIGHTS.change * change;
    // The best lines: those scoring near the best one (a changed line, not every line merely run).
    const lines = [...g.lines]
      .sort((a, b) => b.score - a.score || a.line - b.line)
      .filter((l, _, all) => l.score >= 0.75 * all[0]!.score);
    const start = g.span?.start ?? Math.min(...g.lines.map((l) => l.line));
    const end = g.span?.end ?? Math.max(...g.lines.map((l) => l.line));
    suspects.push({
      file: g.file,
      function: g.span?.name ?? TOP_LEVEL,
      startLine: start,
      endLine: end,
      score: round(score),
      lines: lines.slice(0, 3).map((l) => l.line),
      scores,
      evidence: evidence(g.lines, input),
    });
  }
  return suspects.sort((a, b) => b.score - a.score || a.file.localeCompare(b.file) || a.lines[0]! - b.lines[0]!);
}

function evidence(lines: readonly ScoredLine[], input: RankInput): string[] {
  const out: string[] = [];
  const spectrum = input.spectrum;
  const covered = lines
    .filter((l) => l.parts.coverage !== undefined)
    .sort((a, b) => b.parts.coverage! - a.parts.coverage! || a.line - b.line);
  if (spectrum && covered.length > 0) {
    const top = covered[0]!;
    const spec = spectrum.lines.get(key(top.file, top.line))!;
    const unit = UNIT[spectrum.granularity];
    out.push(
      spectrum.granularity === 'run'
        ? `coverage: run by the failing tests (line ${top.line}; per-test spectra not available for this runner)`
        : `coverage: Ochiai ${round(spec.score)} at line ${top.line} (run by ${spec.failed} of ${spectrum.failedUnits} failing and ${spec.passed} of ${spectrum.passedUnits} passing ${unit})`,
    );
  }
  const stacked = lines.filter((l) => l.parts.stack !== undefined);
  if (stacked.length > 0) {
    const tests = new Set(
      input.frames.filter((f) => stacked.some((l) => l.file === f.file && l.line === f.line)).map((f) => f.test),
    );
    out.push(
      `stack: line ${lineRanges(stacked.map((l) => l.line))} in the stack of ${tests.size} failing test(s)${stacked.some((l) => l.parts.stack! >= 1) ? ' (innermost project frame)' : ''}`,
    );
  }
  const changed = lines.filter((l) => l.parts.change !== undefined);
  if (changed.length > 0)
    out.push(
      `change: line ${lineRanges(changed.map((l) => l.line))} changed ${input.changeBase === 'HEAD' ? 'since the last commit (uncommitted)' : `since ${input.changeBase?.slice(0, 7) ?? 'the base'}`}`,
    );
  return out;
}

const round = (n: number): number => Math.round(n * 1000) / 1000;
