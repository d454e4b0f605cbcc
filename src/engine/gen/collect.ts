import { existsSync, renameSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import { goBuildFlags } from '../runners/commands/go.js';
import type { TestRun, TestRunner } from '../runners/runner.js';
import type { TestCase } from '../types.js';

/** What a runner is asked with: where, for how long, and what can stop it. */
export interface AskRunner {
  runner: TestRunner;
  root: string;
  timeoutMs: number;
  signal?: AbortSignal;
}

/**
 * What the runner says one test file holds. `tests`: the runner's own names for them (a run's report, `go test
 * -list`); `run`: the run that said so (null for go's list); `unknown`: the runner cannot be asked about one file,
 * and nothing is decided from it.
 */
export interface Collected {
  file: string;
  tests: TestCase[];
  run: TestRun | null;
  unknown?: string;
}

/**
 * go builds all test files of a package together: to ask about one new file alone, the package's other new test
 * files step aside (renamed) for the run, and come back whatever happens.
 */
export async function aside<T>(
  root: string,
  file: string,
  files: readonly string[],
  run: () => Promise<T>,
): Promise<T> {
  if (!file.endsWith('_test.go')) return run();
  const others = files
    .filter((f) => f !== file && f.endsWith('_test.go') && dirname(f) === dirname(file))
    .map((f) => join(root, f));
  for (const f of others) if (existsSync(f)) renameSync(f, `${f}.fixcycle-aside`);
  try {
    return await run();
  } finally {
    for (const f of others) if (existsSync(`${f}.fixcycle-aside`)) renameSync(`${f}.fixcycle-aside`, f);
  }
}

/**
 * `go test -list .` on one package folder: the top-level tests, examples and benchmarks its test files declare,
 * with the user's build flags (a package that builds only under their `-vet=off` lists nothing without it).
 */
async function goList(ask: AskRunner, folder: string): Promise<string[] | string> {
  const full = ask.runner.describe();
  const go = full.full[0]?.endsWith('go') ? full.full[0] : 'go';
  const flags = full.full[0]?.endsWith('go') ? goBuildFlags(full.full) : [];
  const r = await execa(go, ['test', ...flags, '-list', '.*', folder === '.' ? '.' : `./${folder}`], {
    cwd: ask.root,
    env: { ...process.env, ...full.env },
    reject: false,
    timeout: ask.timeoutMs,
    ...(ask.signal ? { cancelSignal: ask.signal } : {}),
  });
  const lines = String(r.stdout).split('\n');
  if (r.exitCode !== 0 && !lines.some((l) => /^ok\s/.test(l)))
    return (
      [...String(r.stdout).split('\n'), ...String(r.stderr).split('\n')].filter(Boolean).slice(-3).join(' | ') ||
      `go test -list exited ${r.exitCode}`
    );
  return lines.filter((l) => /^(Test|Example|Fuzz)\w*$/.test(l));
}

/** go: the file's tests are those its package lists with it and not without it. */
async function collectGo(ask: AskRunner, file: string, siblings: readonly string[]): Promise<Collected> {
  const folder = dirname(file);
  const withIt = await aside(ask.root, file, siblings, () => goList(ask, folder));
  if (typeof withIt === 'string') return { file, tests: [], run: null, unknown: withIt };
  // The file itself steps aside too: `aside` moves every listed test file of the folder but the one named.
  const without = await aside(ask.root, join(folder, 'fixcycle-none_test.go'), [...siblings, file], () =>
    goList(ask, folder),
  );
  const before = new Set(typeof without === 'string' ? [] : without);
  const tests = withIt
    .filter((name) => !before.has(name))
    .map((name): TestCase => ({ id: name, name, file, status: 'passed' }));
  return { file, tests, run: null };
}

/**
 * Runs one test file alone (go: its package, the other new files of its folder aside) and returns the run with the
 * tests that are the file's by the report (go reports its package: every test of it). Null: the runner cannot run
 * one file.
 */
export async function runFile(
  ask: AskRunner,
  file: string,
  siblings: readonly string[] = [],
  onLines?: (lines: string[]) => void,
): Promise<{ run: TestRun; tests: TestCase[] } | null> {
  if (!ask.runner.runSubset) return null;
  const run = await aside(ask.root, file, siblings, () =>
    ask.runner.runSubset!(
      {
        cwd: ask.root,
        timeoutMs: ask.timeoutMs,
        ...(ask.signal ? { signal: ask.signal } : {}),
        ...(onLines ? { onLines } : {}),
      },
      { files: [file], names: [] },
    ),
  );
  if (!run) return null;
  // A runner whose report names files (jest, vitest, pytest, mocha) says which tests are this file's; one that
  // does not (node:test's passing tests, tap) ran this file only.
  // node:test reports a file that declares no test as a passing test named after the file: no test of it.
  const tests = file.endsWith('_test.go')
    ? run.result.tests
    : run.result.tests.filter(
        (t) =>
          (!t.file || sameFile(ask.root, t.file, file) || t.id.startsWith(`${file}::`)) &&
          !isFileEntry(ask.root, t.name, file),
      );
  return { run, tests };
}

/**
 * Asks the runner which tests one file holds: a run of that file alone and its report (vitest's and jest's JSON,
 * pytest's, mocha's, node:test's and tap's streams, as `src/engine/report/` reads them), or `go test -list` for go.
 * What the file's text looks like decides nothing here: a title made at run time (`it(title(x))`, `test.each`,
 * parametrize) is collected as the runner names it.
 */
export async function collectFile(
  ask: AskRunner,
  file: string,
  siblings: readonly string[] = [],
  onLines?: (lines: string[]) => void,
): Promise<Collected> {
  if (file.endsWith('_test.go')) return collectGo(ask, file, siblings);
  const ran = await runFile(ask, file, siblings, onLines);
  if (!ran) return { file, tests: [], run: null, unknown: `${ask.runner.name} cannot run one file alone` };
  return { file, tests: ran.tests, run: ran.run };
}

/** node:test's name for a file that declares no test: the file's own path. */
export const isFileEntry = (root: string, name: string, file: string): boolean =>
  name === file || name === `./${file}` || name === join(root, file);

function sameFile(root: string, reported: string, file: string): boolean {
  const rel = reported.startsWith(root) ? reported.slice(root.length + 1) : reported.replace(/^\.\//, '');
  return rel === file || rel.endsWith(`/${file}`) || file.endsWith(`/${rel}`);
}
