import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { caseFor, casesOf, languageOf } from './cases/index.js';
import type { Observed } from './quality-observe.js';
import { testChecks } from './test-checks.js';

/**
 * What a test checks that no test kept before it checks (test-checks.ts: each assertion with the body feeding it).
 * Cases sharing one text (a pytest parametrize case, a go subtest named at run time) check their own values: the
 * reported path beyond the declared case tells them apart. Null when the test cannot be found in its file (a
 * computed title, `it.each`): what it checks is unknown. A reason to keep a test, never to drop one.
 */
export function ownAssertions(root: string, t: Observed, kept: ReadonlySet<string>): string[] | null {
  const language = languageOf(t.file);
  const path = join(root, t.file);
  if (!language || !existsSync(path)) return null;
  const span = caseFor(casesOf(t.file, readFileSync(path, 'utf8')).cases, t.path);
  if (!span) return null;
  const variant =
    t.path.join(' > ') === span.path.join(' > ') ? '' : t.path.slice(Math.max(0, span.path.length - 1)).join(' > ');
  return testChecks(language, span, variant).filter((c) => !kept.has(c));
}

/** Every check a test makes (none when they cannot be read). */
export const checksOf = (root: string, t: Observed): string[] => ownAssertions(root, t, new Set()) ?? [];

/** What the runner should run to measure one test alone, as precisely as it can select it. */
export function selectionOf(runner: string, t: Observed): { files: string[]; names: string[] } {
  // pytest takes a node id (class and parametrize id included) as a path.
  if (runner === 'pytest') return { files: [`${t.file}::${t.path.join('::')}`], names: [] };
  // jest's and vitest's -t match the full name: describe titles and the test's, joined by spaces.
  if (runner === 'jest' || runner === 'vitest') return { files: [t.file], names: [t.path.join(' ')] };
  return { files: [t.file], names: [t.name] };
}
