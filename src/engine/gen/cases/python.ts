import { lineOf, type CaseSpan, type GroupSpan } from './span.js';

interface Line {
  start: number;
  end: number;
  text: string;
  indent: number;
  /** Blank, a comment, or inside a triple-quoted string: never ends a block. */
  inert: boolean;
  /** It starts inside a triple-quoted string. */
  continues: boolean;
  /** The line outside its triple-quoted strings: `dedent('''` opens a bracket that the line ending the string closes. */
  code: string;
}

function linesOf(text: string): Line[] {
  const lines: Line[] = [];
  let open: string | null = null;
  let at = 0;
  for (const raw of text.split('\n')) {
    const trimmed = raw.trim();
    const inString = open !== null;
    let code = '';
    let from = 0;
    for (const m of raw.matchAll(/"""|'''/g)) {
      if (open === null) {
        code += raw.slice(from, m.index);
        open = m[0];
      } else if (open === m[0]) {
        open = null;
        from = m.index + 3;
      }
    }
    if (open === null) code += raw.slice(from);
    lines.push({
      start: at,
      end: at + raw.length,
      text: raw,
      indent: raw.length - raw.trimStart().length,
      inert: inString || trimmed === '' || trimmed.startsWith('#'),
      continues: inString,
      code,
    });
    at += raw.length + 1;
  }
  return lines;
}

/** The last line of the block opened by line `i` (its body: later lines indented deeper, until one that is not). */
function blockEnd(lines: Line[], i: number): number {
  const indent = lines[i]!.indent;
  let last = i;
  let depth = 0;
  for (let j = i; j < lines.length; j++) {
    const l = lines[j]!;
    if (j > i && depth === 0 && !l.inert && l.indent <= indent && !/^[)\]}]/.test(l.text.trim())) break;
    // A line inside a string the block opened is the block's too (its closing `''')` line included).
    if (!l.inert || l.continues) last = j;
    // Brackets left open carry a signature or a call over several lines.
    for (const ch of l.code.replace(/(['"])(?:\\.|(?!\1).)*\1|#.*$/g, ''))
      depth += ch === '(' || ch === '[' || ch === '{' ? 1 : ch === ')' || ch === ']' || ch === '}' ? -1 : 0;
    if (depth < 0) depth = 0;
  }
  return last;
}

/** The first line of a definition at line `i`, its decorators included (they may span lines). */
function decoratedStart(lines: Line[], i: number): number {
  const indent = lines[i]!.indent;
  let start = i;
  for (let j = i - 1; j >= 0; j--) {
    const l = lines[j]!;
    const t = l.text.trim();
    if (t === '') break;
    if (l.indent === indent && t.startsWith('@')) start = j;
    else if (!(l.indent > indent || (l.indent === indent && /^[)\]}]/.test(t)))) break;
  }
  return start;
}

/** pytest's test functions and methods (`def test_*` at module level or in a `Test*`/TestCase class), with their class. */
export function pythonCases(text: string): { cases: CaseSpan[]; groups: GroupSpan[] } {
  const lines = linesOf(text);
  const cases: CaseSpan[] = [];
  const groups: GroupSpan[] = [];
  const classes: { name: string; indent: number; end: number; test: boolean }[] = [];
  // The functions the line is in: what a function defines is never collected. A class or test under a module's
  // `if`, `try` or `else` is (hyperlink defines its test class in the `else:` of `try: import hypothesis`).
  const functions: { indent: number; end: number }[] = [];
  lines.forEach((l, i) => {
    if (l.inert) return;
    while (classes.length && (classes.at(-1)!.indent >= l.indent || classes.at(-1)!.end < i)) classes.pop();
    while (functions.length && (functions.at(-1)!.indent >= l.indent || functions.at(-1)!.end < i)) functions.pop();
    const inFunction = functions.length > 0;
    const cls = /^class\s+(\w+)\s*(\(([^)]*)\))?\s*:/.exec(l.text.trim());
    if (cls && inFunction) return;
    if (cls) {
      const end = blockEnd(lines, i);
      const test = /^Test/.test(cls[1]!) || /TestCase\b/.test(cls[3] ?? '');
      classes.push({ name: cls[1]!, indent: l.indent, end, test });
      if (test && classes.every((c) => c.test))
        groups.push({
          path: classes.map((c) => c.name),
          start: lines[decoratedStart(lines, i)]!.start,
          end: lines[end]!.end,
        });
      return;
    }
    const anyDef = /^(?:async\s+)?def\s+(\w+)\s*\(/.exec(l.text.trim());
    if (!anyDef) return;
    const opened = { indent: l.indent, end: blockEnd(lines, i) };
    const def = /^test/.test(anyDef[1]!) ? anyDef : null;
    const nested = inFunction;
    functions.push(opened);
    if (!def || nested) return; // a helper, or a function nested in one
    const inClass = classes.length > 0 && classes.at(-1)!.indent < l.indent;
    if (inClass && !classes.every((c) => c.test)) return;
    const first = decoratedStart(lines, i);
    const last = opened.end;
    const start = lines[first]!.start;
    const end = lines[last]!.end;
    cases.push({
      path: [...classes.map((c) => c.name), def[1]!],
      name: def[1]!,
      start,
      end,
      line: lineOf(text, start),
      text: text.slice(start, end),
      kind: 'test',
    });
  });
  return { cases, groups };
}
