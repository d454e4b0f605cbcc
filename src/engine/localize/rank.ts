import { enclosingFunction, TOP_LEVEL, type FunctionSpan } from './functions.js';
import type { LineSpectrum } from './ochiai.js';
import type { SourceFrame } from './stack-frames.js';
import type { ChangedLines } from './change.js';
import type { EvidenceKind, Granularity, Suspect } from './types.js';
import { lineRanges } from '../gen/coverage/model.js';
import { callKey, parseCallKey } from './call-keys.js';

/**
 * How much each kind of evidence weighs: the change dominates, then coverage spectra; the stack frames, the
 * names that link the failing tests to a function and the function's size only order what coverage leaves
 * tied or nearly so (together at most TIE_BREAK, less than the gap between two Ochiai levels that matter).
 */
export const WEIGHTS: Record<EvidenceKind, number> = { change: 0.5, coverage: 0.4, stack: 0.05 };
/** The share of the score the tie-breakers (stack, name, size) can add together. */
export const TIE_BREAK = 0.1;
const TIE = { stack: 0.405, name: 0.36, size: 0.135, focus: 0.1 } as const;

/**
 * How much of what the failing tests ran in a function scores its best, 0..1: the mean of its lines' Ochiai
 * over the best. A dispatcher or a caller that reaches the fault through one branch only failing tests take has
 * one line at its best and the rest run by passing tests too; the function the failing tests alone run is at its
 * best throughout. Among functions tied on their best line, the one the failure explains whole goes first.
 */
export function focusOf(covered: readonly number[]): number {
  const best = Math.max(0, ...covered);
  return best > 0 ? covered.reduce((sum, c) => sum + c, 0) / (covered.length * best) : 0;
}

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
  /** The failing tests' names and files: a function or file they name is linked to them. */
  failing?: {
    names: readonly string[];
    files: readonly string[];
    calls?: ReadonlyMap<string, number>;
    /**
     * The JS/TS source files the failing test files load (the import graph): a call in the test code to a name
     * a function of these has reaches that function, not a namesake in a module the test never loads.
     */
    loads?: ReadonlySet<string>;
  };
}

/** A line with the score of each kind of evidence on it. */
export interface ScoredLine {
  file: string;
  line: number;
  score: number;
  parts: Partial<Record<EvidenceKind, number>>;
  /**
   * Where its evidence was measured, when that is another file's line read back here (`moved-lines.ts`: built
   * output at its source, a map's unshipped source at the output it maps), and why, in words.
   */
  measured?: { file: string; line: number; why: string };
  /** The one-line function starting at this offset, whose own calls this coverage counts (`call-keys.ts`). */
  call?: number;
}

const key = (file: string, line: number): string => `${file}:${line}`;
const spectrumKey = (l: ScoredLine): string =>
  l.call !== undefined ? callKey(l.file, l.line, l.call) : key(l.file, l.line);
const UNIT = { test: 'tests', split: 'units', file: 'test files', run: 'runs' } as const;

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
    const call = parseCallKey(k);
    if (call) {
      lines.set(k, { file: call.file, line: call.line, score: 0, parts: { coverage: spec.score }, call: call.offset });
      continue;
    }
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
  // Files whose one-line functions' own calls were counted: there, one that no unit called did not run.
  const callsCounted = new Set(scored.flatMap((s) => (s.call !== undefined ? [s.file] : [])));
  for (const s of scored) {
    const spans = input.functions.get(s.file) ?? [];
    const span =
      s.call === undefined ? enclosingFunction(spans, s.line) : (spans.find((f) => f.offset === s.call) ?? null);
    if (s.call !== undefined && (!span || span.start !== span.end)) continue;
    // Rust and Go have no code outside functions: a frame there is a doctest's or a macro's, not a suspect.
    const bare = !span && /\.(rs|go)$/.test(s.file) && s.parts.change === undefined;
    if (span?.test || bare || (!span && s.parts.stack === undefined && s.parts.change === undefined)) continue;
    const k = `${s.file}\0${span ? `${span.start}:${span.name}` : TOP_LEVEL}`;
    const g = groups.get(k) ?? { file: s.file, span, lines: [] };
    g.lines.push(s);
    groups.set(k, g);
  }
  const measuredFiles = new Set(
    [...(input.spectrum?.lines.keys() ?? [])].map((k) => parseCallKey(k)?.file ?? k.slice(0, k.lastIndexOf(':'))),
  );
  const documented = documentedBy(input.failing?.names ?? [], input.functions);
  const loaded = loadedNames(input);
  const suspects: Suspect[] = [];
  for (const g of groups.values()) {
    const best = (kind: EvidenceKind): number => Math.max(0, ...g.lines.map((l) => l.parts[kind] ?? 0));
    const scores: Partial<Record<EvidenceKind, number>> = {};
    // A declaration's first line runs when its module loads: only the body says whether the function ran. A
    // one-line function's line runs with the code around it: its own calls say, where they were counted.
    const own = g.lines.filter((l) => l.call !== undefined);
    const oneLine = g.span !== null && g.span.end === g.span.start;
    const body =
      oneLine && (own.length > 0 || callsCounted.has(g.file))
        ? own
        : g.span && g.span.end > g.span.start
          ? g.lines.filter((l) => l.line !== g.span!.start)
          : g.lines;
    const coverage = g.span ? Math.max(0, ...body.map((l) => l.parts.coverage ?? 0)) : 0;
    const ran = body.flatMap((l) => (l.parts.coverage !== undefined ? [l.parts.coverage] : []));
    const focus = g.span ? focusOf(ran) : 0;
    const stack = Math.min(
      1,
      g.lines.reduce((sum, l) => sum + (l.parts.stack ?? 0), 0),
    );
    let change = best('change');
    if (change > 0 && input.spectrum && best('coverage') === 0 && measuredFiles.has(g.file)) change /= 2;
    if (coverage > 0) scores.coverage = round(coverage);
    if (stack > 0) scores.stack = round(stack);
    if (change > 0) scores.change = round(change);
    const start = g.span?.start ?? Math.min(...g.lines.map((l) => l.line));
    const end = g.span?.end ?? Math.max(...g.lines.map((l) => l.line));
    const link = g.span
      ? linkOf(g.file, g.span.name, input.failing, documented.get(`${g.file}:${g.span.start}`), loaded)
      : { score: 0, why: [] };
    const size = g.span ? sizeScore(end - start + 1) : 0;
    const tie = TIE.stack * stack + TIE.name * link.score + TIE.size * size + TIE.focus * focus;
    // Without coverage (a crash, a runner fixcycle cannot measure) the tie-breakers are all there is to rank by.
    const score =
      WEIGHTS.change * change +
      WEIGHTS.coverage * coverage +
      (input.spectrum ? TIE_BREAK : WEIGHTS.coverage + TIE_BREAK) * tie;
    // The best lines: those scoring near the best one (a changed line, not every line merely run).
    const lines = [...g.lines]
      .sort((a, b) => b.score - a.score || a.line - b.line)
      .filter((l, _, all) => l.score >= 0.75 * all[0]!.score);
    suspects.push({
      file: g.file,
      function: g.span?.name ?? TOP_LEVEL,
      startLine: start,
      endLine: end,
      score: round(score),
      lines: lines.slice(0, 3).map((l) => l.line),
      scores,
      evidence: [
        ...evidence(g.lines, input, g.span, ran),
        ...link.why,
        ...(g.span && (coverage > 0 || stack > 0 || link.score > 0)
          ? [`size: ${end - start + 1} line(s) (smaller ranks higher among equals)`]
          : []),
      ],
    });
  }
  return suspects.sort((a, b) => b.score - a.score || a.file.localeCompare(b.file) || a.lines[0]! - b.lines[0]!);
}

function evidence(
  lines: readonly ScoredLine[],
  input: RankInput,
  span: FunctionSpan | null,
  ran: readonly number[],
): string[] {
  const out: string[] = [];
  const spectrum = input.spectrum;
  const header = span && span.end > span.start ? span.start : null;
  const own = lines.some((l) => l.call !== undefined);
  const covered = lines
    .filter((l) => l.parts.coverage !== undefined && l.line !== header && (!own || l.call !== undefined))
    .sort((a, b) => b.parts.coverage! - a.parts.coverage! || a.line - b.line);
  if (spectrum && covered.length > 0) {
    const top = covered[0]!;
    const at = top.measured ?? top;
    const spec = spectrum.lines.get(top.measured ? key(at.file, at.line) : spectrumKey(top))!;
    const unit = UNIT[spectrum.granularity];
    out.push(
      spectrum.granularity === 'run'
        ? `coverage: run by the failing tests (line ${top.line}; per-test spectra not available for this runner)`
        : spectrum.granularity === 'split'
          ? `coverage: Ochiai ${round(spec.score)} at line ${top.line} (run by ${spectrum.failedUnits > 1 ? `up to ${spec.failed} of the ${spectrum.failedUnits} failing tests (by its hit count)` : 'the failing tests'}${spec.passed > 0 ? ' and by passing tests of the same files' : ', by no passing test of the same files'})`
          : `coverage: Ochiai ${round(spec.score)} at line ${top.line}${top.call !== undefined ? ', its calls,' : ''} (run by ${spec.failed} of ${spectrum.failedUnits} failing and ${spec.passed} of ${spectrum.passedUnits} passing ${unit})`,
    );
    const atBest = ran.filter((c) => c >= spec.score).length;
    if (spectrum.granularity !== 'run' && ran.length > 1)
      out.push(
        `focus: ${atBest} of the ${ran.length} lines the failing tests ran are at its best (more ranks higher among equals)`,
      );
  }
  // Where the best covered line was measured, else any moved line's (a stack frame's).
  const measured =
    lines
      .filter((l) => l.measured && l.parts.coverage !== undefined)
      .sort((a, b) => b.parts.coverage! - a.parts.coverage!)[0]?.measured ?? lines.find((l) => l.measured)?.measured;
  if (measured) out.push(`built: ${measured.why}`);
  const stacked = lines.filter((l) => l.parts.stack !== undefined);
  if (stacked.length > 0) {
    const at = (l: ScoredLine): { file: string; line: number } => l.measured ?? l;
    const tests = new Set(
      input.frames
        .filter((f) => stacked.some((l) => at(l).file === f.file && at(l).line === f.line))
        .map((f) => f.test),
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

/** 1 for a one-line function, falling with the log of its length: a short function run by the failure says more. */
export const sizeScore = (lines: number): number => 1 / (1 + Math.log2(Math.max(1, lines)));

/** A name's words, lower case: `monthNamesConversion`, `month-names_conversion` -> month, names, conversion. */
const words = (name: string): string[] =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);

/** A file's stem without test markers: `test/month-names-conversion-test.js` -> month names conversion. */
const stem = (file: string): string =>
  words(
    file
      .split('/')
      .at(-1)!
      .replace(/\.[^.]+$/, ''),
  )
    .filter((w) => !['test', 'tests', 'spec', 'index'].includes(w))
    .join(' ');

const INFLECTION = /^(s|es|d|ed|ing|er|ers)$/;
/** A sentence's word says a name's word, or an inflection of it: `formats`, `formatted`, `parsing` say format, parse. */
const says = (word: string, own: string): boolean =>
  word === own ||
  [own, own + own.at(-1), ...(own.endsWith('e') ? [own.slice(0, -1)] : [])].some(
    (stem) => word.startsWith(stem) && INFLECTION.test(word.slice(stem.length)),
  );

/**
 * How the failing tests' names say this function's own name, averaged over them: per name 1 as a whole
 * identifier (`is_left` in `src/lib.rs - Either<L,R>::is_left`), 1/2 as words of it (`month names` in
 * `converts month names`, `format` in `returns formatted strings`), else 0. A function most failing tests
 * name outranks one a single test names.
 */
export function namedIn(own: string, names: readonly string[]): number {
  const ownWords = words(own);
  if (ownWords.join(' ').length <= 2 || names.length === 0) return 0;
  const inWords = (n: string): boolean => {
    const said = words(n);
    return said.some((_, i) => ownWords.every((w, j) => said[i + j] !== undefined && says(said[i + j]!, w)));
  };
  const one = (n: string): number => (n.split(/[^\w$]+/).includes(own) ? 1 : inWords(n) ? 0.5 : 0);
  return names.reduce((sum, n) => sum + one(n), 0) / names.length;
}

/** rustdoc names a doc test after its file, the item it documents and its example's line: `src/lib.rs - unsync::OnceCell<T>::take (line 614)`. */
const DOC_TEST = /^(\S+\.rs) - (\S.*) \(line (\d+)\)$/;

/**
 * The functions the failing doc tests document, `file:start` -> the example's line: in the file the test's name
 * gives, the first function after the example whose name ends as the item's path does (the item follows its
 * documentation). Two functions of one name (`sync::OnceCell::take`, `unsync::OnceCell::take`) are told apart.
 */
export function documentedBy(
  names: readonly string[],
  functions: ReadonlyMap<string, FunctionSpan[]>,
): Map<string, number> {
  const out = new Map<string, number>();
  for (const name of names) {
    const doc = DOC_TEST.exec(name);
    if (!doc) continue;
    const [, file, item, at] = doc;
    const line = Number(at);
    const own = ownName(item!.replace(/<[^<>]*>/g, ''));
    const after = (functions.get(file!) ?? []).filter((f) => !f.test && f.start > line && ownName(f.name) === own);
    const first = after.sort((a, b) => a.start - b.start)[0];
    if (first) out.set(`${file}:${first.start}`, line);
  }
  return out;
}

/** A function's own name, the last part of its path: `OnceCell::take`, `Yallist.prototype.get` -> take, get. */
const ownName = (fn: string): string =>
  fn
    .split(/\.|::| > /)
    .filter((p) => !p.startsWith('('))
    .at(-1) ?? '';

/** The own names of the functions in the modules the failing test files load: where a call can land. */
function loadedNames(input: RankInput): Set<string> {
  const loads = input.failing?.loads;
  if (!loads) return new Set();
  return new Set(
    [...input.functions].flatMap(([file, spans]) => (loads.has(file) ? spans.map((s) => ownName(s.name)) : [])),
  );
}

/**
 * How the failing tests name this function: its own name among the words of a failing test's name, called by
 * the test code that failed (more on or just above the failing line), its file's stem the same as a failing
 * test file's (`index` names no file).
 */
export function linkOf(
  file: string,
  fn: string,
  failing: RankInput['failing'],
  documentedAt?: number,
  loaded: ReadonlySet<string> = new Set(),
): { score: number; why: string[] } {
  if (!failing) return { score: 0, why: [] };
  const own = ownName(fn);
  const named = namedIn(own, failing.names);
  const fileStem = stem(file);
  const sameFile = fileStem.length > 0 && failing.files.some((t) => stem(t) === fileStem);
  // A test file named after the function (`options.camelcase.test.js` names camelcase): its stem as a name.
  const fileNamed = !sameFile && namedIn(own, [...new Set(failing.files.map(stem))]) > 0;
  const why: string[] = [];
  // A call reaches the function of that name in a module the failing test files load, where one has it.
  const reached = !loaded.has(own) || (failing.loads?.has(file) ?? true);
  const called = reached ? (failing.calls?.get(own) ?? 0) : 0;
  if (named) {
    const naming = failing.names.filter((n) => namedIn(own, [n]) > 0).length;
    why.push(`name: ${naming} of ${failing.names.length} failing test name(s) say ${own}`);
  }
  if (called > 0)
    why.push(
      `name: the failing tests call ${own} (${round(called)}; 1 when each calls it on or just above its failing line)`,
    );
  if (sameFile) why.push(`name: the failing test file is named after ${file}`);
  if (fileNamed) why.push(`name: a failing test file is named after ${own}`);
  if (documentedAt !== undefined)
    why.push(`name: a failing doc test documents it (its example at line ${documentedAt})`);
  const documents = documentedAt !== undefined ? 0.3 : 0;
  return { score: Math.min(1, 0.5 * named + 0.3 * called + (sameFile || fileNamed ? 0.2 : 0) + documents), why };
}
