/** One test case in a test file: its full path within the file (describe blocks, class, subtests, then its own name). */
export interface CaseSpan {
  /** `['outer describe', 'inner describe', 'it name']`, `['TestClass', 'test_x']`, `['TestX', 'sub_case']`. */
  path: string[];
  name: string;
  /** Character offsets of the whole case (decorators included), and its 1-based first line. */
  start: number;
  end: number;
  line: number;
  text: string;
  /** A subtest (go's t.Run) or a block holding cases (describe, class): not a test on its own. */
  kind: 'test' | 'subtest';
}

/** A block that groups cases (describe, a test class): removed once it holds none. */
export interface GroupSpan {
  path: string[];
  start: number;
  end: number;
}

/** Removes `[start, end)` spans from text, from the last to the first, with the indentation before and the line end after each. */
export function cutSpans(text: string, spans: readonly { start: number; end: number }[], maxBlank = 1): string {
  let out = text;
  for (const s of [...spans].sort((a, b) => b.start - a.start)) {
    let end = s.end;
    while (out[end] === ';' || out[end] === ' ' || out[end] === '\t') end++;
    if (out[end] === '\n') end++;
    let start = s.start;
    while (start > 0 && (out[start - 1] === ' ' || out[start - 1] === '\t')) start--;
    // A blank line left doubled by the cut goes with it.
    if ((start === 0 || out.slice(start - 2, start) === '\n\n') && out[end] === '\n') end++;
    out = out.slice(0, start) + out.slice(end);
    // No more blank lines where the cut was than the language's style has between two definitions.
    let blanks = 0;
    for (let i = start - 1; i >= 0 && out[i] === '\n'; i--) blanks++;
    while (out[start] === '\n' && blanks > maxBlank) {
      out = out.slice(0, start) + out.slice(start + 1);
      blanks--;
    }
    while (
      out[start] === '\n' &&
      start > 0 &&
      out.slice(Math.max(0, start - maxBlank - 1), start) === '\n'.repeat(maxBlank + 1)
    )
      out = out.slice(0, start) + out.slice(start + 1);
  }
  return out;
}

/** The index just past the bracket that closes the one at `open`, skipping strings, templates and comments; -1 when unbalanced. */
export function closingBracket(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '/' && text[i + 1] === '/') {
      i = text.indexOf('\n', i);
      if (i < 0) return -1;
    } else if (ch === '/' && text[i + 1] === '*') {
      i = text.indexOf('*/', i + 2) + 1;
      if (i <= 0) return -1;
    } else if (ch === '"' || ch === "'" || ch === '`') {
      for (i++; i < text.length && text[i] !== ch; i++) if (text[i] === '\\') i++;
    } else if (ch === '(' || ch === '{' || ch === '[') depth++;
    else if (ch === ')' || ch === '}' || ch === ']') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

export function lineOf(text: string, index: number): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < index; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** Spans contained in another of the list are dropped: the outermost stands for them. */
export function outermost<T extends { start: number; end: number }>(spans: T[]): T[] {
  return spans.filter(
    (c) => !spans.some((o) => o !== c && o.start <= c.start && o.end >= c.end && (o.start < c.start || o.end > c.end)),
  );
}
