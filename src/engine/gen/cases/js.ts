import { closingBracket, lineOf, outermost, type CaseSpan, type GroupSpan } from './span.js';

const CASE = /(^|[^\w.$])(it|test|specify)((?:\.\w+)*)\s*\(\s*(['"`])((?:\\.|(?!\4)[^\\])*)\4/g;
const GROUP = /(^|[^\w.$])(describe|suite|context)((?:\.\w+)*)\s*\(\s*(['"`])((?:\\.|(?!\4)[^\\])*)\4/g;

function calls(text: string, re: RegExp): { name: string; start: number; end: number }[] {
  const found: { name: string; start: number; end: number }[] = [];
  for (const m of text.matchAll(re)) {
    const start = m.index + m[1]!.length;
    const end = closingBracket(text, text.indexOf('(', start));
    if (end >= 0) found.push({ name: m[5]!, start, end });
  }
  return found;
}

/** The `it(` / `test(` cases of a JS/TS test file with their describe path, and the describe blocks. */
export function jsCases(text: string): { cases: CaseSpan[]; groups: GroupSpan[] } {
  const groupCalls = calls(text, GROUP);
  const within = (s: { start: number; end: number }) =>
    groupCalls
      .filter((g) => g.start < s.start && g.end >= s.end)
      .sort((a, b) => a.start - b.start)
      .map((g) => g.name);
  const groups = groupCalls.map((g) => ({ path: [...within(g), g.name], start: g.start, end: g.end }));
  // A case nested in another (rare) belongs to the outer one's text.
  const cases = outermost(calls(text, CASE)).map((c): CaseSpan => ({
    path: [...within(c), c.name],
    name: c.name,
    start: c.start,
    end: c.end,
    line: lineOf(text, c.start),
    text: text.slice(c.start, c.end),
    kind: 'test',
  }));
  return { cases, groups };
}
