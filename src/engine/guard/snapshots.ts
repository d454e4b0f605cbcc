import type { FileDiff } from './diff.js';

const INLINE_CALL = /\.to(?:Match|ThrowErrorMatching)InlineSnapshot\s*\(/g;
const INLINE_LINE = /\.to(?:Match|ThrowErrorMatching)InlineSnapshot\s*\(/;

/** Settings that make a runner rewrite snapshots instead of comparing them (`update: true`, `-u`, `--updateSnapshot`). */
const UPDATE_SETTING =
  /\bupdateSnapshots?\b|\bupdate\s*:\s*(true|['"]all['"]|['"]new['"])|--update(Snapshot)?\b|(^|[\s"'])-u([\s"']|$)/;

/** An added line of a test configuration that makes the runner update snapshots, if there is one. */
export function snapshotUpdateSetting(added: readonly string[]): string | undefined {
  return added.find((line) => UPDATE_SETTING.test(line));
}

/**
 * The line range (1-based, inclusive) of each inline snapshot's argument in a file: from the line of
 * `toMatchInlineSnapshot(` to the line of its closing parenthesis, strings and template literals skipped.
 */
export function inlineSnapshotRanges(content: string): [number, number][] {
  const ranges: [number, number][] = [];
  for (const match of content.matchAll(INLINE_CALL)) {
    const open = match.index + match[0].length;
    let depth = 1;
    let quote: string | null = null;
    let i = open;
    for (; i < content.length && depth > 0; i++) {
      const ch = content[i]!;
      if (quote) {
        if (ch === '\\') i++;
        else if (ch === quote) quote = null;
      } else if (ch === '`' || ch === '"' || ch === "'") quote = ch;
      else if (ch === '(') depth++;
      else if (ch === ')') depth--;
    }
    ranges.push([lineAt(content, match.index), lineAt(content, i - 1)]);
  }
  return ranges;
}

function lineAt(content: string, index: number): number {
  let line = 1;
  for (let i = 0; i < index; i++) if (content[i] === '\n') line++;
  return line;
}

/**
 * A changed line of a test file that rewrites what an inline snapshot expects (jest's and vitest's
 * toMatchInlineSnapshot and toThrowErrorMatchingInlineSnapshot arguments, as `-u` rewrites them), or null:
 * an added line inside one, a line removed from inside one, or a snapshot call whose argument changed.
 */
export function inlineSnapshotChange(d: FileDiff, content: string): string | null {
  const ranges = inlineSnapshotRanges(content);
  const inside = (line: number, strict: boolean): boolean =>
    ranges.some(([from, to]) => (strict ? line > from && line <= to : line >= from && line <= to));
  const argumentsOf = (lines: readonly string[]): string[] =>
    lines
      .flatMap((line) => [...line.matchAll(INLINE_CALL)].map((m) => line.slice(m.index + m[0].length).trim()))
      .sort();
  const before = argumentsOf(d.removed);
  const after = argumentsOf(d.added);
  if (before.length > 0 || after.length > 0) {
    if (before.join('\n') !== after.join('\n'))
      return d.added.find((line) => INLINE_LINE.test(line)) ?? d.removed.find((line) => INLINE_LINE.test(line)) ?? null;
  }
  const added = (d.addedAt ?? []).findIndex((line) => inside(line, false));
  if (added !== -1 && !INLINE_LINE.test(d.added[added]!)) return d.added[added]!;
  const removed = (d.removedAt ?? []).findIndex((line) => inside(line, true));
  return removed === -1 ? null : d.removed[removed]!;
}
