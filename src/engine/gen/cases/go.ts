import { closingBracket, lineOf, type CaseSpan, type GroupSpan } from './span.js';

const FUNC = /^func\s+(Test\w*)\s*\(\s*\w+\s+\*testing\.T\s*\)\s*\{/gm;
const RUN = /\b(\w+)\.Run\(\s*"((?:\\.|[^"\\])*)"/g;

/** go test's name for a subtest: spaces become underscores. */
function subtestName(name: string): string {
  return name.replace(/\s/g, '_');
}

/** go's `func TestX(t *testing.T)` and the subtests with a literal name it runs (`t.Run("name", ...)`), nested. */
export function goCases(text: string): { cases: CaseSpan[]; groups: GroupSpan[] } {
  const cases: CaseSpan[] = [];
  for (const m of text.matchAll(FUNC)) {
    const end = closingBracket(text, m.index + m[0].length - 1);
    if (end < 0) continue;
    // Doc comments right above the function go with it.
    let start = m.index;
    while (start > 0) {
      const prev = text.lastIndexOf('\n', start - 2);
      const line = text.slice(prev + 1, start - 1);
      if (!line.trimStart().startsWith('//')) break;
      start = prev + 1;
    }
    cases.push({ path: [m[1]!], name: m[1]!, start, end, line: lineOf(text, m.index), text: text.slice(start, end), kind: 'test' });
  }
  const subtests: CaseSpan[] = [];
  for (const test of [...cases]) {
    const runs: { name: string; start: number; end: number }[] = [];
    for (const m of test.text.matchAll(RUN)) {
      const start = test.start + m.index;
      const end = closingBracket(text, text.indexOf('(', start));
      if (end > 0) runs.push({ name: subtestName(m[2]!), start, end });
    }
    for (const r of runs) {
      const outer = runs.filter((o) => o.start < r.start && o.end >= r.end).sort((a, b) => a.start - b.start).map((o) => o.name);
      subtests.push({ path: [test.name, ...outer, r.name], name: r.name, start: r.start, end: r.end, line: lineOf(text, r.start), text: text.slice(r.start, r.end), kind: 'subtest' });
    }
  }
  return { cases: [...cases, ...subtests], groups: [] };
}
