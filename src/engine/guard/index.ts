import { existsSync, readFileSync } from 'node:fs';
import { basename, isAbsolute, join, relative } from 'node:path';
import type { FixPlan } from '../session/schema.js';
import { parseGitDiff, type FileDiff } from './diff.js';
import { isSnapshot, isTestConfig, isTestFile, normalizePath } from './files.js';
import { doctestLinesChanged } from './mixed-files.js';
import { outsideRepository } from './outside.js';
import { inlineSnapshotChange, snapshotUpdateSetting } from './snapshots.js';
import {
  ASSERTION,
  count,
  EXCLUSION_KEYS,
  isTrivialAssertion,
  SKIP_MARKERS,
  TEST_CASE,
  TEST_FILE_SKIP_MARKERS,
} from './patterns.js';

/** What the guard looks at after a fix: the files the agent changed and their diff against HEAD. */
export interface FixCheckInput {
  /** Repository root. */
  repo: string;
  /** Repository-relative paths the fix changed (Repo.changedFiles). */
  changedFiles: string[];
  /** Their unified diff against HEAD, new files included (Repo.diff). */
  diff: string;
  /** The plan the fix applied; its `tests_are_wrong` allows edits to the tests it names. */
  plan: FixPlan | null;
  /** Files of the session's baseline tests (any path form); they are test files whatever their name. */
  baselineTestFiles: string[];
  /** The session was started to update snapshots (--update-snapshots): rewriting them is then allowed. */
  updateSnapshots?: boolean;
}

/** The verdict: accepted (with the test files it was allowed to edit, to show the user) or rejected with reasons. */
export type FixCheck = { ok: true; testEdits: string[] } | { ok: false; reasons: string[] };

function excerpt(line: string): string {
  const t = line.trim();
  return t.length > 100 ? `${t.slice(0, 97)}...` : t;
}

/** Does a `tests_are_wrong` entry (a test id or name) name a test in this file? */
function namesTestIn(entry: string, file: string, content: string): boolean {
  const e = normalizePath(entry);
  if (e.includes(file) || e.startsWith(`${basename(file)}::`) || e.includes(`/${basename(file)}::`)) return true;
  const name = e.split(/::|>/).at(-1)?.trim() ?? '';
  return name.length >= 3 && content.includes(name);
}

function currentContent(repo: string, d: FileDiff): string {
  const path = join(repo, d.newPath);
  try {
    return existsSync(path) ? readFileSync(path, 'utf8') : d.removed.join('\n');
  } catch {
    return d.removed.join('\n');
  }
}

/** The reasons one file's change cheats, whatever the plan says. */
function cheats(d: FileDiff, isTest: boolean): string[] {
  const reasons: string[] = [];
  const markers = isTest ? [...SKIP_MARKERS, ...TEST_FILE_SKIP_MARKERS] : SKIP_MARKERS;
  for (const m of markers) {
    if (count(d.added, m.re) > count(d.removed, m.re))
      reasons.push(`adds ${m.what} in ${d.newPath}: ${excerpt(d.added.find((l) => m.re.test(l))!)}`);
  }
  if (isTestConfig(d.newPath)) {
    const narrowing = d.added.find((l) => EXCLUSION_KEYS.test(l));
    if (narrowing !== undefined)
      reasons.push(`changes test configuration in ${d.newPath} to exclude or narrow tests: ${excerpt(narrowing)}`);
    const update = snapshotUpdateSetting(d.added);
    if (update !== undefined)
      reasons.push(`makes the test runner update snapshots in ${d.newPath}: ${excerpt(update)}`);
    const script = /"test(:[\w:-]+)?"\s*:/;
    if (basename(d.newPath) === 'package.json' && d.added.some((l) => script.test(l)))
      reasons.push(`changes the test script in ${d.newPath}`);
  }
  if (!isTest) return reasons;
  const casesLost = count(d.removed, TEST_CASE) - count(d.added, TEST_CASE);
  if (casesLost > 0) reasons.push(`removes ${casesLost} test case${casesLost === 1 ? '' : 's'} from ${d.newPath}`);
  const assertsLost = count(d.removed, ASSERTION) - count(d.added, ASSERTION);
  if (assertsLost > 0)
    reasons.push(`removes ${assertsLost} assertion${assertsLost === 1 ? '' : 's'} from ${d.newPath}`);
  const trivial = d.added.find(isTrivialAssertion);
  if (trivial !== undefined) reasons.push(`replaces an assertion with a constant in ${d.newPath}: ${excerpt(trivial)}`);
  return reasons;
}

/**
 * The guard against fixing by cheating, run after every fix and before it counts. Rejects a fix that deletes
 * or renames test files, removes test cases, adds skip/only/todo markers, weakens assertions, edits snapshots,
 * narrows the test configuration, or reaches outside the repository; and one that edits a test file unless
 * the plan's `tests_are_wrong` names a test in it (those edits are returned as `testEdits`).
 */
export function checkFix(input: FixCheckInput): FixCheck {
  const { repo } = input;
  const baseline = new Set(input.baselineTestFiles.map((f) => normalizePath(isAbsolute(f) ? relative(repo, f) : f)));
  const diffs = parseGitDiff(input.diff);
  const reasons: string[] = [];
  const testEdits: string[] = [];
  const seen = new Set<string>();

  for (const file of new Set([...input.changedFiles, ...diffs.flatMap((d) => [d.oldPath, d.newPath])])) {
    const outside = outsideRepository(repo, file);
    if (outside) reasons.push(`touches a file outside the repository: ${outside}`);
  }
  for (const d of diffs) {
    seen.add(d.oldPath).add(d.newPath);
    const content = currentContent(repo, d);
    const wasTest = isTestFile(d.oldPath, baseline, d.status === 'deleted' ? d.removed.join('\n') : null);
    const isTest = isTestFile(d.newPath, baseline, content);
    const doctest = isTest ? [] : doctestLinesChanged(d, content);
    if (doctest.length > 0 && !input.plan?.tests_are_wrong?.some((entry) => namesTestIn(entry, d.newPath, content))) {
      reasons.push(
        `changes the doctest examples in ${d.newPath} (what the test expects), but the plan names no test in it under tests_are_wrong: ${excerpt(doctest[0]!)}`,
      );
      continue;
    }
    if (doctest.length > 0) testEdits.push(d.newPath);
    if (isSnapshot(d.oldPath) || isSnapshot(d.newPath)) {
      if (input.updateSnapshots) testEdits.push(d.newPath);
      else
        reasons.push(
          `edits snapshot ${d.newPath} (what the tests expect; start the session with --update-snapshots to update snapshots)`,
        );
      continue;
    }
    const inline = isTest && !input.updateSnapshots ? inlineSnapshotChange(d, content) : null;
    if (inline !== null) {
      reasons.push(
        `rewrites an inline snapshot in ${d.newPath} (what the test expects; start the session with --update-snapshots to update snapshots): ${excerpt(inline)}`,
      );
      continue;
    }
    if (d.status === 'deleted' && wasTest) {
      reasons.push(`deletes test file ${d.oldPath}`);
      continue;
    }
    if (d.status === 'renamed' && wasTest) {
      reasons.push(`renames test file ${d.oldPath} to ${d.newPath}`);
      continue;
    }
    // A source file holding tests (doctests, Rust's #[cfg(test)]) may be edited, but not to drop its tests.
    const holdsTests = isTest || isTestFile(d.newPath, baseline);
    const cheating = cheats(d, holdsTests);
    reasons.push(...cheating);
    if (!isTest || cheating.length > 0) continue;
    if (d.status === 'added') {
      testEdits.push(d.newPath);
      continue;
    }
    if (input.plan?.tests_are_wrong?.some((entry) => namesTestIn(entry, d.newPath, content))) testEdits.push(d.newPath);
    else reasons.push(`edits test file ${d.newPath}, but the plan names no test in it under tests_are_wrong`);
  }
  // A deleted test file the diff did not cover is still a deleted test file.
  for (const file of input.changedFiles) {
    if (!seen.has(file) && isTestFile(file, baseline, null) && !existsSync(join(repo, file)))
      reasons.push(`deletes test file ${file}`);
  }
  const unique = [...new Set(reasons)];
  return unique.length ? { ok: false, reasons: unique } : { ok: true, testEdits: [...new Set(testEdits)].sort() };
}
