/** One test case in a JS/TS test file: its name, where its call starts and ends, and its 1-based line. */
export interface TestCaseSpan {
  name: string;
  start: number;
  end: number;
  line: number;
  text: string;
}

const CASE = /(^|[^\w.$])(it|test|specify)((?:\.\w+)*)\s*\(\s*(['"`])((?:\\.|(?!\4)[^\\])*)\4/g;

/** The index just past the `)` that closes the `(` at `open`, skipping strings, templates and comments; -1 when unbalanced. */
export function closingParen(text: string, open: number): number {
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

/** The test cases of a JS/TS test file, found by their `it(` / `test(` calls. */
export function findTestCases(text: string): TestCaseSpan[] {
  const cases: TestCaseSpan[] = [];
  for (const m of text.matchAll(CASE)) {
    const start = m.index + m[1]!.length;
    const open = text.indexOf('(', start);
    const end = closingParen(text, open);
    if (end < 0) continue;
    cases.push({ name: m[5]!, start, end, line: text.slice(0, start).split('\n').length, text: text.slice(start, end) });
  }
  // A case nested in another (rare) belongs to the outer one's text; keep the outermost.
  return cases.filter((c) => !cases.some((o) => o !== c && o.start < c.start && o.end >= c.end));
}

/** The file's text without the named test cases (and the rest of their line when it is only `;`). */
export function removeTestCases(text: string, names: ReadonlySet<string>): { text: string; removed: string[] } {
  const removed: string[] = [];
  let out = text;
  for (const c of findTestCases(text).reverse()) {
    if (!names.has(c.name)) continue;
    let end = c.end;
    while (out[end] === ';' || out[end] === ' ') end++;
    if (out[end] === '\n') end++;
    let start = c.start;
    while (start > 0 && (out[start - 1] === ' ' || out[start - 1] === '\t')) start--;
    out = out.slice(0, start) + out.slice(end);
    removed.push(c.name);
  }
  return { text: out, removed };
}
