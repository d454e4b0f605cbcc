import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { casesOf } from './cases/index.js';
import type { StaticHint } from './decide-drop.js';
import { STATIC_HINTS, staticChecks } from './l0/static-checks.js';

/** A test's path as plain names: no pytest parametrize id, no repeat counter, `::` and ` > ` alike. */
const parts = (path: readonly string[]): string[] =>
  path.flatMap((p) => p.split(/::| > /)).map((p) => p.replace(/\[.*\]$/, '').replace(/ \(\d+\)$/, ''));

/**
 * L0's findings on the new tests that only a run can confirm (no assertion, constant assertion, placeholder), for
 * the quality gate to look at twice: a finding applies to the test whose reported path it names (a go subtest or
 * a parametrized case takes its function's). A test L0 cannot name (a title made at run time) gets none; an empty
 * path asks for every finding in the file.
 */
export async function staticHints(
  root: string,
  files: readonly string[],
): Promise<(t: { file: string; path: readonly string[] }) => StaticHint[]> {
  const findings = (await staticChecks(root, files, [])).filter((f) => f.test && STATIC_HINTS.has(f.check));
  const declared = new Map<string, string[][]>();
  const casesIn = (file: string): string[][] => {
    if (!declared.has(file)) {
      const path = join(root, file);
      const text = existsSync(path) ? readFileSync(path, 'utf8') : '';
      declared.set(
        file,
        casesOf(file, text).cases.map((c) => parts(c.path)),
      );
    }
    return declared.get(file)!;
  };
  const endsWith = (path: readonly string[], tail: readonly string[]): boolean =>
    tail.length <= path.length && tail.every((n, i) => n === path[path.length - tail.length + i]);
  return (t) => {
    const mine = parts(t.path);
    return findings
      .filter((f) => f.file === t.file)
      .filter((f) => {
        // No path: the file as a whole (one the runner could not load, so no test of it has a reported path).
        if (mine.length === 0) return true;
        const named = parts([f.test!]);
        if (named.length <= mine.length) return named.every((n, i) => n === mine[i]);
        // node:test names a test without its describe: the finding's test ends so, and is the one case that does.
        return endsWith(named, mine) && casesIn(t.file).filter((c) => endsWith(c, mine)).length === 1;
      })
      .map((f) => ({ check: f.check, message: f.message }));
  };
}
