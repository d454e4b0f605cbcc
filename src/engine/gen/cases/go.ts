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
    cases.push({
      path: [m[1]!],
      name: m[1]!,
      start,
      end,
      line: lineOf(text, m.index),
      text: text.slice(start, end),
      kind: 'test',
    });
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
      const outer = runs
        .filter((o) => o.start < r.start && o.end >= r.end)
        .sort((a, b) => a.start - b.start)
        .map((o) => o.name);
      subtests.push({
        path: [test.name, ...outer, r.name],
        name: r.name,
        start: r.start,
        end: r.end,
        line: lineOf(text, r.start),
        text: text.slice(r.start, r.end),
        kind: 'subtest',
      });
    }
  }
  return { cases: [...cases, ...subtests], groups: [] };
}

/** Removes the imports a Go file no longer uses once tests left it: go does not build a file with an unused import. */
export function pruneGoImports(text: string): string {
  const spec = /^\s*(?:(\w+|\.|_)\s+)?"([^"]+)"\s*$/;
  const uses = (name: string, body: string): boolean => new RegExp(`\\b${name}\\.`).test(body);
  const block = /^import\s*\(\n([\s\S]*?)\n\)[ \t]*\n/m.exec(text);
  const single = /^import\s+((?:\w+\s+)?"[^"]+")[ \t]*\n/m.exec(text);
  const found = block ?? single;
  if (!found) return text;
  const body = text.slice(0, found.index) + text.slice(found.index + found[0].length);
  const lines = block ? block[1]!.split('\n') : [single![1]!];
  const kept = lines.filter((line) => {
    const m = spec.exec(line);
    if (!m) return true;
    const name =
      m[1] ??
      m[2]!
        .split('/')
        .at(-1)!
        .replace(/^go-|\.v\d+$|-go$/g, '')
        .replace(/[^\w]/g, '');
    return name === '_' || name === '.' || uses(name, body);
  });
  if (kept.length === lines.length) return text;
  const imports = kept.filter((l) => spec.test(l));
  const replacement =
    imports.length === 0
      ? ''
      : `import (\n${kept
          .join('\n')
          .replace(/\n{3,}/g, '\n\n')
          .replace(/^\n+|\n+$/g, '')}\n)\n`;
  return (text.slice(0, found.index) + replacement + text.slice(found.index + found[0].length)).replace(
    /\n{3,}/g,
    '\n\n',
  );
}
