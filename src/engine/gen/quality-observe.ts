import { existsSync, readFileSync } from 'node:fs';
import { basename, isAbsolute, join, relative } from 'node:path';
import { aside, isFileEntry } from './collect.js';
import type { TestRun } from '../runners/runner.js';
import type { TestCase } from '../types.js';
import { casesOf, languageOf, reportedPath } from './cases/index.js';
import { node, type GenContext } from './gen-context.js';

/** What observing new tests needs of a session: gen's, or a team generator task's (its tree and runner). */
export type ObserveContext = Pick<GenContext, 'runner' | 'signal' | 'emit'> & {
  repo: Pick<GenContext['repo'], 'root' | 'restoreFiles'>;
  options: Pick<GenContext['options'], 'testTimeoutMs'>;
};

/** One new test as the runner identifies it (describe path, pytest class and parametrize id, go subtest), and its results in order. */
export interface Observed {
  /** `<file>::<path in the file>`: the runner's identity with the file the test lives in. */
  id: string;
  name: string;
  file: string;
  /** Its path in the file as the runner reports it. */
  path: string[];
  statuses: string[];
  /** The runner's message for its last failure, or the reason it gave for a skip. */
  message?: string;
}

/** A new file the runner could not collect on its own: its tests never ran. */
export interface Uncollected {
  file: string;
  error: string;
}

/** Which new file a test belongs to: its reported file, else the one new file that declares a test of its name. */
export function fileOf(
  root: string,
  t: TestCase,
  files: readonly string[],
  declared: ReadonlyMap<string, string[]>,
): string | null {
  // node:test reports a file that declares no test as a passing test named after the file: no test of it.
  if (files.some((file) => isFileEntry(root, t.name, file))) return null;
  const f = t.file ? (isAbsolute(t.file) ? relative(root, t.file) : t.file).replace(/^\.\//, '') : null;
  if (f && files.includes(f)) return f;
  const byId = files.find((candidate) => t.id.startsWith(`${candidate}::`));
  if (byId) return byId;
  // go reports the package, not the file: the test function's name tells which file it is in.
  const owners = declared.get(t.name) ?? declared.get(t.name.split('/')[0]!) ?? [];
  if (owners.length === 1) return owners[0]!;
  // A run of one file (node:test names no file for a passing test): what it reports is that file's, a title made
  // at run time included. go's run is its package's, the project's own tests too.
  return !f && files.length === 1 && !files[0]!.endsWith('_test.go') ? files[0]! : null;
}

/** Test names each new file declares (node:test reports no file for a passing test, go only the package). */
export function declaredNames(root: string, files: readonly string[]): Map<string, string[]> {
  const names = new Map<string, string[]>();
  for (const file of files) {
    const text = existsSync(join(root, file)) ? readFileSync(join(root, file), 'utf8') : '';
    for (const c of casesOf(file, text).cases) names.set(c.name, [...new Set([...(names.get(c.name) ?? []), file])]);
  }
  return names;
}

/** A new test's identity (`Observed.id`) and its path in its file, from the runner's report of it. */
export function identityOf(file: string, t: TestCase): { id: string; path: string[] } {
  const language = languageOf(file);
  const path = reportedPath(t, language);
  const rest = language === 'go' ? t.name : t.id.includes('::') ? t.id.slice(t.id.indexOf('::') + 2) : t.name;
  return { id: `${file}::${rest}`, path };
}

// A terminal's colours (ts-jest prints its diagnostics with them): the words are read without.
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;

/** The runner's own words on why a run collected nothing from a file: its errors, else the end of its output. */
export function collectionError(run: TestRun | null): string {
  if (!run) return 'the runner cannot run one file alone';
  // A report's message can be bare (pytest's JUnit says only "collection failure"): the output has the words.
  const text = [...run.result.errors.map((e) => e.message), run.noTestRan?.message ?? '', run.outputTail]
    .join('\n')
    .replace(ANSI, '');
  const lines = [
    ...new Set(
      text
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean),
    ),
  ];
  const key = lines.filter((l) =>
    /^E\s|^panic:|\w*Error\b.*:|error:|error TS\d+:|No test|must contain at least one test|cannot find|undefined:/.test(
      l,
    ),
  );
  return (key.length ? key : lines).slice(-3).join(' | ').slice(0, 600) || 'no test ran and the runner said nothing';
}

async function runFiles(ctx: ObserveContext, files: string[]): Promise<TestRun> {
  const root = ctx.repo.root;
  const opts = {
    cwd: root,
    timeoutMs: ctx.options.testTimeoutMs,
    signal: ctx.signal,
    onLines: (lines: string[]) => ctx.emit({ type: 'output', lines }),
  };
  return (
    (await ctx.runner.runSubset?.(opts, { files, names: [] })) ?? (await ctx.runner.run({ ...opts, scope: 'full' }))
  );
}

/**
 * When a run of the new files as a whole fails to collect (pytest's `Interrupted: 1 error during collection`,
 * a vitest/jest suite that fails to load or holds no test) or reports no test of some file, each such file runs
 * alone: those that collect on their own are innocent, the others are the culprits, each with the runner's own
 * error. An innocent file whose tests the run of all could not tell apart (node:test names no file for a passing
 * test) is judged by runs of its own (`alone`).
 */
async function findUncollected(
  ctx: ObserveContext,
  files: string[],
  first: TestRun,
  seen: ReadonlySet<string>,
): Promise<{ culprits: Uncollected[]; alone: string[]; beside?: Map<string, string[]> }> {
  const suspects = first.result.errors.length > 0 || first.noTestRan ? files : files.filter((f) => !seen.has(f));
  if (files.length === 1 && suspects.length === 1)
    return { culprits: seen.has(files[0]!) ? [] : [{ file: files[0]!, error: collectionError(first) }], alone: [] };
  const culprits: Uncollected[] = [];
  const alone: string[] = [];
  const declared = declaredNames(ctx.repo.root, files);
  const collects = async (file: string, besides: readonly string[] = []): Promise<Uncollected | null> => {
    const others = files.filter((f) => !besides.includes(f));
    const run = await aside(ctx.repo.root, file, others, () => runFiles(ctx, [file]));
    const ran = run.result.tests.some((t) => fileOf(ctx.repo.root, t, [file], declared) === file);
    const ownErrors = run.result.errors.filter((e) => !e.file || e.file.includes(file) || file.includes(e.file));
    return !ran || ownErrors.length > 0 || run.noTestRan ? { file, error: collectionError(run) } : null;
  };
  const elsewhere: Uncollected[] = [];
  for (const file of suspects) {
    node(ctx, 'IMPL-001.5', 'running', `collection: ${file} alone`);
    const culprit = await collects(file);
    if (culprit && failsElsewhere(culprit)) elsewhere.push(culprit);
    else if (culprit) culprits.push(culprit);
    else if (!seen.has(file)) alone.push(file);
    if (ctx.signal.aborted) break;
  }
  // go builds a package's test files together: an existing test may use a helper a new file declares (pkg-errors'
  // json_test.go and initpc), so a file alone breaks the build in another file. It is asked again beside the new
  // files that collected alone and those whose tests all passed in the run of all (a panicking test there would
  // end the binary before it); the runs of its own keep them beside it.
  const beside = new Map<string, string[]>();
  if (elsewhere.length > 0) {
    const failed = new Set(
      first.result.tests.filter((t) => t.status === 'failed').map((t) => fileOf(ctx.repo.root, t, files, declared)),
    );
    const helpers = files.filter(
      (f) =>
        !elsewhere.some((e) => e.file === f) &&
        !culprits.some((c) => c.file === f) &&
        (suspects.includes(f) || (seen.has(f) && !failed.has(f))),
    );
    for (const u of elsewhere) {
      node(ctx, 'IMPL-001.5', 'running', `collection: ${u.file} beside ${helpers.join(', ') || 'no other new file'}`);
      const culprit = helpers.length > 0 ? await collects(u.file, helpers) : u;
      if (culprit) culprits.push(culprit);
      else {
        alone.push(u.file);
        beside.set(u.file, helpers);
      }
      if (ctx.signal.aborted) break;
    }
  }
  return { culprits, alone, beside };
}

/** A Go package that did not build for errors in its other files only (`./json_test.go:14:3: undefined: initpc`). */
function failsElsewhere(u: Uncollected): boolean {
  if (!u.file.endsWith('_test.go')) return false;
  const places = [...u.error.matchAll(/([\w./-]+\.go):\d+:/g)].map((m) => basename(m[1]!));
  return places.length > 0 && !places.includes(basename(u.file));
}

/** One run's tests, each with the new file it belongs to, its identity, status and message (a skip's reason). */
type Seen = [string, Observed, string, string | undefined][];

function attribute(root: string, run: TestRun, files: readonly string[], into: Seen, seenFiles: Set<string>): void {
  const declared = declaredNames(root, files);
  for (const t of run.result.tests) {
    const file = fileOf(root, t, files, declared);
    if (!file) continue;
    seenFiles.add(file);
    const { id, path } = identityOf(file, t);
    into.push([
      id,
      { id, name: t.name, file, path, statuses: [] },
      t.status,
      t.status === 'skipped' ? t.skipReason : t.message,
    ]);
  }
}

/**
 * Runs the new test files `runs` times and collects each test's results, in order, keyed by the runner's full
 * identity, and how long the slowest run took (a clean run's time: what bounds a mutant's run). Each file is judged on its own: files that break collection are found first and left out of the runs,
 * and a file whose tests a run of all cannot tell apart runs alone, so one broken file never sinks its siblings.
 */
export async function observe(
  ctx: ObserveContext,
  files: string[],
  runs: number,
): Promise<{ tests: Map<string, Observed>; uncollected: Uncollected[]; slowestMs: number }> {
  const root = ctx.repo.root;
  const uncollected: Uncollected[] = [];
  let slowestMs = 0;
  let active = [...files];
  let solo: string[] = [];
  // The new files a solo file's package needs beside it to build (findUncollected).
  const beside = new Map<string, string[]>();
  let tests = new Map<string, Observed>();
  for (let i = 1; i <= runs && active.length + solo.length > 0; i++) {
    node(
      ctx,
      'IMPL-001.5',
      'running',
      `stability: run ${i} of ${runs} of ${active.length + solo.length} new test file(s)`,
    );
    const seenFiles = new Set<string>();
    const thisRun: Seen = [];
    if (active.length > 0) {
      const run = await runFiles(ctx, active);
      slowestMs = Math.max(slowestMs, run.durationMs);
      attribute(root, run, active, thisRun, seenFiles);
      if (i === 1 && (run.result.errors.length > 0 || run.noTestRan || active.some((f) => !seenFiles.has(f)))) {
        const found = await findUncollected(ctx, active, run, seenFiles);
        if (found.culprits.length > 0 || found.alone.length > 0) {
          const { culprits } = found;
          uncollected.push(...culprits);
          solo = [...solo, ...found.alone];
          for (const [file, helpers] of found.beside ?? []) beside.set(file, helpers);
          active = active.filter((f) => !culprits.some((c) => c.file === f) && !found.alone.includes(f));
          // Out of the tree at once: go builds every test file of a package, listed or not.
          if (culprits.length > 0) await ctx.repo.restoreFiles(culprits.map((c) => c.file));
          // The others' first run was spoiled by the culprits: start again without them.
          tests = new Map();
          i = 0;
          continue;
        }
      }
    }
    for (const file of solo) {
      const helpers = beside.get(file) ?? [];
      const others = [...active, ...solo].filter((f) => !helpers.includes(f));
      const run = await aside(root, file, others, () => runFiles(ctx, [file]));
      slowestMs = Math.max(slowestMs, run.durationMs);
      attribute(root, run, [file], thisRun, seenFiles);
      if (ctx.signal.aborted) break;
    }
    for (const [id, fresh, status, message] of thisRun) {
      const seen = tests.get(id) ?? fresh;
      seen.statuses.push(status);
      if ((status === 'failed' || status === 'skipped') && message) seen.message = message;
      tests.set(id, seen);
    }
    if (ctx.signal.aborted) break;
  }
  return { tests, uncollected, slowestMs };
}
