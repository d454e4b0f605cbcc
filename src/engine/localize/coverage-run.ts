import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { coverageSupport, withCoverage } from '../gen/coverage/measure.js';
import { preparePython } from '../gen/coverage/python.js';
import { CommandTestRunner } from '../runners/test-runner.js';
import type { RunTestsOptions, TestRun, TestRunner } from '../runners/runner.js';
import type { Invocation } from '../runners/invocation.js';
import { TEST_COVERAGE_VAR } from '../runners/commands/mocha-test-coverage.js';
import { PRELOADED_TEST_COVERAGE, requiring, writeTapeTestCoverage } from './tape-test-coverage.js';
import { writeJestTestCoverage } from './jest-test-coverage.js';
import { withVitestTestCoverage } from './vitest-test-coverage.js';
import { writeAvaTestCoverage } from './ava-test-coverage.js';
import type { Failure } from '../types.js';
import {
  perTestUnits,
  pythonContextUnits,
  runUnit,
  v8ProcessUnits,
  withTestContexts,
  type FailingSets,
  type ProcessUnit,
} from './coverage-units.js';
import { lineHits, splitUnits } from './split-units.js';
import { cargoSpectrum } from './cargo-coverage.js';
import type { Granularity, SpectrumUnit } from './types.js';

/** Node runners that start one process per test file: V8 coverage tells their files apart. */
const PROCESS_PER_FILE = new Set(['node-test', 'tap']);
/** Node runners fixcycle measures with V8 coverage (gen's own tool or none of their own). */
const V8_NODE = new Set(['node-test', 'tap', 'tape', 'mocha', 'ava', 'uvu']);
/**
 * Runners whose subset command narrows to test names (the filter the flaky re-run uses): a second run of the
 * failing tests alone tells them from the passing tests of their files.
 */
const NAME_FILTER = new Set(['node-test', 'mocha', 'ava', 'jest', 'vitest', 'go']);
const MAX_SIDE_BY_SIDE = 3;
/** Runners whose fixcycle reporter or preload writes each test's coverage (`FIXCYCLE_TEST_COVERAGE`): a unit per test. */
const PER_TEST_HOOK = new Set(['mocha', 'ava', ...PRELOADED_TEST_COVERAGE]);
/** The per-test preload file of each runner that gets one, written before its processes start. */
const PRELOAD_WRITERS = new Map<string, (dir: string, failing: readonly string[]) => string>([
  ['tape', writeTapeTestCoverage],
  ['ava', writeAvaTestCoverage],
]);
/** Runners that run every file given in one process and have no name filter: one process per file instead. */
const FILE_BY_FILE = new Set(['tape']);

/** The granularity each runner's coverage run gives, or null when fixcycle cannot measure it. */
export function granularityOf(runner: string): Granularity | null {
  if (runner === 'pytest' || runner === 'cargo') return 'test';
  if (NAME_FILTER.has(runner)) return 'split';
  if (PROCESS_PER_FILE.has(runner) || FILE_BY_FILE.has(runner)) return 'file';
  if (V8_NODE.has(runner)) return 'run';
  return null;
}

/** The test's own name, without the suites a report may have joined in front (`suite > name`). */
const leafName = (name: string): string => name.split(' > ').at(-1)!;

export interface CoverageRunInput {
  root: string;
  runner: TestRunner;
  failures: readonly Failure[];
  /** Passing test files that load what the failing ones load, best first: some join a per-file run. */
  neighbours: string[];
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface SpectrumRun {
  units: SpectrumUnit[];
  granularity: Granularity;
  /** What ran, in words (`3 test files`). */
  ran: string;
  /** Why nothing was measured although the run went ahead. */
  missing?: string;
}

/**
 * The coverage of the failing tests' files as spectrum units: per test where the runner reports contexts
 * (pytest), the failing tests apart from the passing tests of their files where the runner filters by name
 * (two runs, told apart by their hit counts), per test file where it runs one process per file (the passing
 * files that load the same sources join), else the run as one unit. A skip with a reason when the runner
 * cannot be measured.
 */
export async function runSpectrum(input: CoverageRunInput): Promise<SpectrumRun | { skipped: string }> {
  const { root } = input;
  const granularity = granularityOf(input.runner.name);
  if (!granularity || !(input.runner instanceof CommandTestRunner))
    return { skipped: `fixcycle cannot measure coverage for the ${input.runner.name} runner` };
  // The loop has just run the whole test command on this tree: its setup (a build) need not run again, and
  // its checks and after parts (lint, tsc, aud) would only add their time, as when the runner cannot run a
  // subset and the coverage run is the full suite.
  const runner = input.runner.runnerOnly();
  if (runner.name === 'cargo') {
    const cargo = await cargoSpectrum({ ...input, runner });
    return 'skipped' in cargo ? cargo : { ...cargo, granularity };
  }
  const failing: FailingSets = {
    files: new Set(input.failures.flatMap((f) => (f.file ? [f.file] : []))),
    ids: input.failures.map((f) => f.id),
  };
  const failingFiles = [...failing.files];
  const placed = failingFiles.length > 0 && input.failures.every((f) => f.file) && runner.runSubset !== undefined;
  // Passing files cost a process each: at most half as many as the failing ones (one at least) keep the run
  // near the cost of re-running the failures. A runner that mixes every file into one process gains nothing.
  // tape's process per file runs side by side: beyond MAX_SIDE_BY_SIDE files they queue on a small machine and
  // cost more than the run they replace.
  const perFile =
    granularity === 'file' && placed && (!FILE_BY_FILE.has(runner.name) || failingFiles.length < MAX_SIDE_BY_SIDE);
  const extra =
    perFile || (placed && PROCESS_PER_FILE.has(runner.name))
      ? input.neighbours.slice(0, Math.max(1, Math.ceil(failingFiles.length / 2)))
      : [];
  const files = [...failingFiles, ...extra];
  const names = [...new Set(input.failures.map((f) => leafName(f.name)))];
  const split = granularity === 'split' && placed && names.every((n) => n.trim().length > 0);
  const options = { cwd: root, timeoutMs: input.timeoutMs, signal: input.signal };
  const all: RunTestsOptions = {
    ...options,
    scope: 'affected',
    changedFiles: [],
    lastFailures: input.failures.map((f) => ({ id: f.id, file: f.file })),
  };
  // A failure placed in no file can only be re-run with the whole suite.
  const runOf =
    (selection: { files: string[]; names: string[] }) =>
    async (r: TestRunner): Promise<TestRun> =>
      placed ? ((await r.runSubset!(options, selection)) ?? r.run(all)) : r.run(all);
  const ran = (run: TestRun, times = 1): string =>
    `${run.selection ? `${run.selection.files.length} test file(s)` : 'the whole suite'}${times > 1 ? ` (${times} runs)` : ''}`;

  if (runner.name === 'pytest') {
    const dir = mkdtempSync(join(tmpdir(), 'fixcycle-localize-'));
    try {
      const python = preparePython(dir, root);
      withTestContexts(dir, failing.ids);
      // Plain asserts: pytest's assertion rewriting formats a failure by calling repr() on what it compared,
      // which runs the project's __repr__ inside the failing tests' context although no test called it.
      const plain = (inv: Invocation): Invocation => {
        const own = inv.env.PYTEST_ADDOPTS ?? process.env.PYTEST_ADDOPTS;
        return { ...inv, env: { ...inv.env, PYTEST_ADDOPTS: [own, '--assert=plain'].filter(Boolean).join(' ') } };
      };
      const run = await runOf({ files, names: [] })(runner.withInvocations((inv) => plain(python.env(inv))));
      const { units, missing } = await pythonContextUnits(dir, root, failing);
      return { units, granularity, ran: ran(run), ...(missing ? { missing } : {}) };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  if (V8_NODE.has(runner.name)) {
    const dir = mkdtempSync(join(tmpdir(), 'fixcycle-localize-'));
    try {
      // mocha writes each test's coverage through fixcycle's reporter, tape and ava through a preloaded file:
      // one run gives a unit per test. ava's takes are a test's own only when its tests run one at a time.
      const tests = PER_TEST_HOOK.has(runner.name) ? join(dir, 'tests') : null;
      const ava = runner.name === 'ava';
      const write = PRELOAD_WRITERS.get(runner.name);
      const preload = tests && write ? write(dir, names) : null;
      const measuredIn = (sub: string): CommandTestRunner =>
        runner.withInvocations((inv) => ({
          ...inv,
          ...(ava && tests && sub === 'whole' ? { argv: [...inv.argv, '--serial'] } : {}),
          env: {
            ...inv.env,
            NODE_V8_COVERAGE: join(dir, sub),
            ...(tests && sub === 'whole' ? { [TEST_COVERAGE_VAR]: tests } : {}),
            ...(preload && sub === 'whole'
              ? { NODE_OPTIONS: requiring(preload, inv.env.NODE_OPTIONS ?? process.env.NODE_OPTIONS) }
              : {}),
          },
        }));
      // tape runs every file it is given in one process: each file gets its own, side by side.
      const wholeRun = async (): Promise<TestRun> => {
        if (!(perFile && FILE_BY_FILE.has(runner.name))) return runOf({ files, names: [] })(measuredIn('whole'));
        const runs = await Promise.all(files.map((file) => runOf({ files: [file], names: [] })(measuredIn('whole'))));
        return runs[0]!;
      };
      const failingRun = (): Promise<TestRun> | null =>
        split ? runOf({ files: failingFiles, names })(measuredIn('failing')) : null;
      const [run, alongside] = await Promise.all([wholeRun(), tests ? null : failingRun()]);
      if (tests) {
        const perTest = await perTestUnits(tests, root, input.failures);
        if (perTest.some((u) => u.failed && u.lines.length > 0))
          return { units: perTest, granularity: 'test', ran: ran(run) };
      }
      // No test's coverage came back (a wrapper that drops fixcycle's reporter, mocha's parallel mode, an ava
      // without the chain the preload hooks): the failing tests alone, told from the passing ones by their hit
      // counts.
      const filtered = alongside ?? (await failingRun());
      let units: ProcessUnit[] = await v8ProcessUnits(join(dir, 'whole'), root, failing);
      if (split && filtered) {
        const failingHits = lineHits(
          ...(await v8ProcessUnits(join(dir, 'failing'), root, failing)).map((u) => u.coverage),
        );
        const whole = units.filter((u) => u.failed);
        const rest = units.filter((u) => !u.failed).map(({ coverage: _, ...u }) => u);
        if (whole.length > 0 && failingHits.size > 0)
          return {
            units: [...splitUnits(lineHits(...whole.map((u) => u.coverage)), failingHits, names.length), ...rest],
            granularity: 'split',
            ran: ran(run, 2),
          };
      }
      // One process ran every file: its unit is the run.
      if (units.length <= 1) units = units.map((u) => ({ ...u, failed: true }));
      return {
        units: units.map(({ coverage: _, ...u }) => u),
        granularity: units.length > 1 ? 'file' : 'run',
        ran: ran(run, perFile && FILE_BY_FILE.has(runner.name) ? files.length : 1),
      };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  if ((runner.name === 'jest' || runner.name === 'vitest') && placed) {
    const perTest = await hookedPerTest(runner, root, input.failures, files, runOf({ files, names: [] }));
    if (perTest?.units.some((u) => u.failed && u.lines.length > 0))
      return { units: perTest.units, granularity: 'test', ran: ran(perTest.run) };
  }
  const support = coverageSupport(runner, root);
  if (!support.ok) return { skipped: support.reason };
  // jest's V8 provider skips babel's instrumentation: the same lines, in a fraction of the time.
  const fast =
    runner.name === 'jest'
      ? runner.withInvocations((inv) => ({ ...inv, argv: [...inv.argv, '--coverageProvider=v8'] }))
      : runner;
  const [measured, filtered] = await Promise.all([
    withCoverage(fast, root, [], runOf({ files, names: [] })),
    split ? withCoverage(fast, root, [], runOf({ files: failingFiles, names })) : null,
  ]);
  const missing = measured.missing ? { missing: measured.missing } : {};
  if (Object.keys(measured.coverage).length === 0)
    return { units: [], granularity, ran: ran(measured.result), ...missing };
  const failingHits = filtered ? lineHits(filtered.coverage) : new Map<string, number>();
  if (failingHits.size > 0 && [...failingHits.values()].some((n) => n > 0))
    return {
      units: splitUnits(lineHits(measured.coverage), failingHits, names.length),
      granularity: 'split',
      ran: ran(measured.result, 2),
      ...missing,
    };
  return { units: [runUnit(measured.coverage)], granularity: 'run', ran: ran(measured.result), ...missing };
}

/**
 * One unit per jest or vitest test from one run of the failing files: jest through the file preloaded into its
 * processes (jest-test-coverage.ts), its own coverage off (its instrumentation would be what V8 counts);
 * vitest through a setup file a generated config adds to the user's (vitest-test-coverage.ts). Null, or no
 * failing test's coverage back (an environment of the project's own that takes jest's test events itself, a
 * vitest workspace): the caller falls back to the runner's coverage and the hit-count split.
 */
async function hookedPerTest(
  runner: CommandTestRunner,
  root: string,
  failures: readonly Failure[],
  files: string[],
  runFiles: (r: TestRunner) => Promise<TestRun>,
): Promise<{ units: SpectrumUnit[]; run: TestRun } | null> {
  const dir = mkdtempSync(join(tmpdir(), 'fixcycle-localize-'));
  try {
    const tests = join(dir, 'tests');
    if (runner.name === 'vitest') {
      const preview = runner.commands.subset(dir, { files, names: [] });
      if (!preview || !withVitestTestCoverage(dir, root, preview, tests)) return null;
    }
    const measured =
      runner.name === 'vitest'
        ? runner.withInvocations((inv) => withVitestTestCoverage(dir, root, inv, tests) ?? inv)
        : jestPreloaded(runner, writeJestTestCoverage(dir), tests);
    const run = await runFiles(measured);
    return { units: await perTestUnits(tests, root, failures), run };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const jestPreloaded = (runner: CommandTestRunner, preload: string, tests: string): CommandTestRunner =>
  runner.withInvocations((inv) => ({
    ...inv,
    argv: [...inv.argv, '--coverage=false'],
    env: {
      ...inv.env,
      [TEST_COVERAGE_VAR]: tests,
      NODE_OPTIONS: requiring(preload, inv.env.NODE_OPTIONS ?? process.env.NODE_OPTIONS),
    },
  }));
