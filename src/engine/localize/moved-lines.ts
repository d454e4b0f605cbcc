import type { FunctionSpan } from './types.js';
import { WEIGHTS, type ScoredLine } from './rank.js';
import type { EvidenceKind } from './types.js';

/** Where a line's evidence is read instead, and why in words; null to leave it where it was measured. */
export type Move = (line: ScoredLine) => { file: string; lines: number[]; why: string } | null;

/**
 * The scored lines with some moved to other lines (each to one or more), their evidence joined to what the
 * target line already has (the change of a source line, another moved line's coverage), rescored and sorted as
 * `scoreLines` sorts. A moved line remembers where it was measured.
 */
export function moveLines(lines: readonly ScoredLine[], move: Move): ScoredLine[] {
  const out = new Map<string, ScoredLine>();
  const put = (l: ScoredLine): void => {
    const k = `${l.file}:${l.line}${l.call !== undefined ? `:fn${l.call}` : ''}`;
    const had = out.get(k);
    if (!had) return void out.set(k, { ...l, parts: { ...l.parts } });
    for (const [kind, v] of Object.entries(l.parts) as [EvidenceKind, number][])
      had.parts[kind] = kind === 'stack' ? Math.min(1, (had.parts[kind] ?? 0) + v) : Math.max(had.parts[kind] ?? 0, v);
    had.measured ??= l.measured;
  };
  for (const l of lines) {
    const to = move(l);
    if (!to) put(l);
    // A one-line function's calls are counted at its offset in the file that ran: no offset of the other file.
    else if (l.call !== undefined) continue;
    else
      for (const line of to.lines)
        put({ ...l, file: to.file, line, measured: { file: l.file, line: l.line, why: to.why } });
  }
  for (const l of out.values())
    l.score = (Object.entries(l.parts) as [EvidenceKind, number][]).reduce((sum, [k, v]) => sum + WEIGHTS[k] * v, 0);
  return [...out.values()].sort((a, b) => b.score - a.score || a.file.localeCompare(b.file) || a.line - b.line);
}

/** A function's own name, the last part of its path: `Parser.prototype.parse`, `Parser.parse` -> parse. */
const ownName = (fn: string): string => fn.split('.').at(-1) ?? fn;

/** The source's function a built function is compiled from: the same name, else the one function of its own name. */
function sourceOf(built: FunctionSpan, spans: readonly FunctionSpan[]): FunctionSpan | null {
  const same = spans.find((s) => s.name === built.name);
  if (same) return same;
  const own = spans.filter((s) => ownName(s.name) === ownName(built.name));
  return own.length === 1 ? own[0]! : null;
}

/** The innermost function holding a line. */
function holding(spans: readonly FunctionSpan[], line: number): FunctionSpan | null {
  let best: FunctionSpan | null = null;
  for (const s of spans)
    if (s.start <= line && line <= s.end && (!best || s.end - s.start < best.end - best.start)) best = s;
  return best;
}

/**
 * Built output without a source map (tsc's `dist/x.js` of `src/x.ts`), read back in the source a user edits:
 * each line at the same place in the source's function of the same name (its offset from the function's first
 * line, within the function). A line outside any function, or in a function the source does not have, stays.
 * `outputs`: built file -> source file; `functions`: both files' functions.
 */
export function builtToSource(
  outputs: ReadonlyMap<string, string>,
  functions: ReadonlyMap<string, FunctionSpan[]>,
): Move {
  return (l) => {
    const source = outputs.get(l.file);
    const fn = source ? holding(functions.get(l.file) ?? [], l.line) : null;
    const to = fn ? sourceOf(fn, functions.get(source!) ?? []) : null;
    if (!source || !fn || !to) return null;
    return {
      file: source,
      lines: [Math.min(to.end, to.start + (l.line - fn.start))],
      why: `the tests ran ${l.file} (line ${l.line}), which tsc builds from this file without a source map: read at the same place in the function`,
    };
  };
}
