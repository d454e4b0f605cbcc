import type { TestCase } from '../../types.js';
import { goCases, pruneGoImports } from './go.js';
import { jsCases } from './js.js';
import { pythonCases } from './python.js';
import { cutSpans, type CaseSpan, type GroupSpan } from './span.js';

export type { CaseSpan } from './span.js';

export type CaseLanguage = 'js' | 'python' | 'go';

export function languageOf(file: string): CaseLanguage | null {
  if (/\.(m|c)?[jt]sx?$/.test(file)) return 'js';
  if (file.endsWith('.py')) return 'python';
  if (file.endsWith('_test.go')) return 'go';
  return null;
}

/** The test cases a test file declares, each with its full path in the file, and the blocks grouping them. */
export function casesOf(file: string, text: string): { cases: CaseSpan[]; groups: GroupSpan[] } {
  const language = languageOf(file);
  if (language === 'python') return pythonCases(text);
  if (language === 'go') return goCases(text);
  return jsCases(text);
}

/** Tests proper (not subtests): what a file needs at least one of to be worth committing. */
export function testCount(file: string, text: string): number {
  return casesOf(file, text).cases.filter((c) => c.kind === 'test').length;
}

/** How the runner reported a test, as a path in its file: describe path, class and parametrised name, go subtests. */
export function reportedPath(test: Pick<TestCase, 'id' | 'name'>, language: CaseLanguage | null): string[] {
  if (language === 'go') return test.name.split('/');
  const rest = test.id.includes('::') ? test.id.slice(test.id.indexOf('::') + 2) : test.name;
  return rest.replace(/ \(\d+\)$/, '').split(' > ');
}

/** pytest's parametrised `test_x[1-2]` is the function `test_x`. */
function bare(name: string): string {
  return name.replace(/\[.*\]$/, '');
}

/**
 * The declared case a reported test is: the one whose path is the longest prefix of the reported path (a go
 * subtest without a literal name is its function; a parametrised pytest id is its function), else the one case
 * of that leaf name in the file. Null when it cannot be told.
 */
export function caseFor(cases: readonly CaseSpan[], reported: readonly string[]): CaseSpan | null {
  const path = [...reported.slice(0, -1), bare(reported.at(-1) ?? '')];
  let best: CaseSpan | null = null;
  for (const c of cases) {
    if (c.path.length > path.length || !c.path.every((p, i) => p === path[i])) continue;
    if (!best || c.path.length > best.path.length) best = c;
  }
  if (best) return best;
  const byLeaf = cases.filter((c) => c.name === path.at(-1));
  return byLeaf.length === 1 ? byLeaf[0]! : null;
}

/**
 * The file's text without the given cases, and without the describe blocks or test classes left holding no case.
 * `left`: how many tests proper remain (0: the file should go).
 */
export function removeCases(
  file: string,
  text: string,
  drop: readonly CaseSpan[],
): { text: string; removed: string[]; left: number } {
  const { cases, groups } = casesOf(file, text);
  const gone = cases.filter((c) => drop.some((d) => d.start === c.start && d.end === c.end));
  const isGone = (c: CaseSpan): boolean => gone.some((g) => g.start <= c.start && g.end >= c.end);
  const kept = cases.filter((c) => !isGone(c));
  const emptyGroups = groups.filter((g) => !kept.some((c) => c.start > g.start && c.end <= g.end));
  const spans = [...gone, ...emptyGroups].filter(
    (s, _, all) =>
      !all.some((o) => o !== s && o.start <= s.start && o.end >= s.end && (o.start < s.start || o.end > s.end)),
  );
  const cut = cutSpans(text, spans, languageOf(file) === 'python' ? 2 : 1);
  return {
    text: languageOf(file) === 'go' ? pruneGoImports(cut) : cut,
    removed: gone.map((c) => c.path.join(' > ')),
    left: kept.filter((c) => c.kind === 'test').length,
  };
}
