import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mergeCoverage, type CoverageData } from './model.js';
import { CommandTestRunner } from '../../runners/test-runner.js';
import type { Invocation } from '../../runners/invocation.js';
import type { TestRun, TestRunner } from '../../runners/runner.js';
import { readGoProfile } from './go-profile.js';
import { hasCoveragePy, preparePython, readPythonCoverage } from './python.js';
import { ownCoverageGates, ownGatesOff } from './own-gates.js';
import { readReportDir } from './report-dir.js';
import { unloadedAsUncovered } from './unloaded.js';
import { readV8Coverage } from './v8.js';
import { vitestCoverageArgs, vitestProvider } from './vitest.js';
import { withWrapperReport, wrapperOf, wrapperReportDir, type CoverageWrapper } from './wrappers.js';
import { isSourceFile } from '../source-files.js';

/** Runners whose tests load the project's files as they are, so V8's own coverage maps straight onto them. */
// ava's worker threads write their V8 coverage under NODE_V8_COVERAGE like processes do (quick-lru, gen corpus).
const V8_RUNNERS = new Set(['node-test', 'mocha', 'tape', 'ava']);

export type CoverageSupport = { ok: true; how: string } | { ok: false; reason: string };

const SUPPORTED = 'it measures node:test, mocha, tape and ava through V8 coverage (or the c8 or nyc the test script wraps them in), jest and vitest through their own --coverage, pytest through coverage.py, and go through -coverprofile';

/** The full-run command, to see how the project starts its tests (null for runners that are not commands). */
function fullRun(runner: TestRunner | string): Invocation | null {
  return runner instanceof CommandTestRunner ? runner.commands.full(tmpdir()) : null;
}

/**
 * Whether gen can measure coverage for this runner in this project, how, and why not when it cannot. Given
 * only a runner's name, it answers for the runner in general (a project may still lack the tool).
 */
export function coverageSupport(runner: TestRunner | string, root?: string): CoverageSupport {
  const name = typeof runner === 'string' ? runner : runner.name;
  const full = fullRun(runner);
  if (V8_RUNNERS.has(name)) {
    const wrapper = full && wrapperOf(full.argv);
    const own = wrapper ? `the test script's own ${wrapper} (its istanbul JSON report) for full runs, and ` : '';
    return { ok: true, how: `${own}V8 coverage (NODE_V8_COVERAGE) mapped to lines and branches by v8-to-istanbul` };
  }
  if (name === 'go') return { ok: true, how: 'go test -coverprofile (through GOFLAGS), lines only: Go profiles carry no branch data' };
  if (name === 'jest') return { ok: true, how: "jest's own --coverage (json reporter), read from coverage-final.json by istanbul-lib-coverage" };
  if (name === 'vitest') {
    const provider = root ? vitestProvider(root) : 'v8';
    if (!provider) return { ok: false, reason: "vitest measures coverage through @vitest/coverage-v8 (or -istanbul), which this project does not have: install @vitest/coverage-v8" };
    return { ok: true, how: `vitest's own --coverage (@vitest/coverage-${provider}, json reporter), read from coverage-final.json by istanbul-lib-coverage` };
  }
  if (name === 'pytest') {
    const probe = full ? hasCoveragePy(full) : null;
    if (probe && !probe.ok) return { ok: false, reason: `pytest's coverage is measured by coverage.py, which ${probe.python} cannot import: install it (pip install coverage, or apt-get install python3-coverage)` };
    return { ok: true, how: 'coverage.py (lines and branches, every Python process of the run), read from `coverage json`' };
  }
  return { ok: false, reason: `fixcycle cannot measure coverage for the ${name} runner yet (${SUPPORTED})` };
}

/** Nothing is set on fixcycle's own environment, so runs with and without coverage can go on at the same time. */
function withInvocations(runner: TestRunner, change: (inv: Invocation) => Invocation): TestRunner {
  return runner instanceof CommandTestRunner ? runner.withInvocations(change) : runner;
}

const withEnv = (vars: Record<string, string>) => (inv: Invocation): Invocation => ({ ...inv, env: { ...inv.env, ...vars } });
const withArgs = (args: string[]) => (inv: Invocation): Invocation => ({ ...inv, argv: [...inv.argv, ...args] });

export interface CoverageRun<T> {
  result: T;
  coverage: CoverageData;
  /** Why the run measured nothing although it was asked to (the tool is missing where the tests run). */
  missing?: string;
}

/**
 * Runs `run` with coverage switched on, by the project's own tool where it has one (vitest's or jest's
 * --coverage, the c8 or nyc its script wraps the runner in, coverage.py, a Go cover profile), else V8 coverage
 * for every Node process it starts, and reads the coverage of the project's source files. Files in `ensure`
 * that no test loaded count as never run.
 */
export async function withCoverage<T>(runner: TestRunner, root: string, ensure: readonly string[], run: (runner: TestRunner) => Promise<T>): Promise<CoverageRun<T>> {
  const dir = mkdtempSync(join(tmpdir(), 'fixcycle-cov-'));
  try {
    const measured = await measure(runner, root, dir, run);
    return { ...measured, coverage: await unloadedAsUncovered(root, ensure, measured.coverage) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function measure<T>(runner: TestRunner, root: string, dir: string, run: (runner: TestRunner) => Promise<T>): Promise<CoverageRun<T>> {
  const gates = await ownCoverageGates(runner, root);
  const off = (inv: Invocation): Invocation => ownGatesOff(inv, runner.name, gates);
  if (runner.name === 'go') {
    const profile = join(dir, 'cover.out');
    const flags = [process.env.GOFLAGS, `-coverprofile=${profile}`, '-covermode=count'].filter(Boolean).join(' ');
    const result = await run(withInvocations(runner, withEnv({ GOFLAGS: flags })));
    return read(result, 'go test -coverprofile', existsSync(profile) ? await readGoProfile(profile, root, isSourceFile) : null);
  }
  if (runner.name === 'jest') {
    const args = withArgs(['--coverage', '--coverageReporters=json', `--coverageDirectory=${dir}`]);
    const result = await run(withInvocations(runner, (inv) => args(off(inv))));
    return read(result, "jest's --coverage", await readReportDir(dir, root, isSourceFile));
  }
  if (runner.name === 'vitest') {
    const provider = vitestProvider(root);
    if (!provider) return { result: await run(runner), coverage: {}, missing: (coverageSupport('vitest', root) as { reason: string }).reason };
    const result = await run(withInvocations(runner, withArgs(vitestCoverageArgs(provider, join(dir, 'vitest')))));
    return read(result, "vitest's --coverage", await readReportDir(join(dir, 'vitest'), root, isSourceFile));
  }
  if (runner.name === 'pytest') {
    const python = preparePython(dir, root);
    const result = await run(withInvocations(runner, (inv) => python.env(off(inv))));
    const { data, missing } = await readPythonCoverage(dir, root, isSourceFile);
    const why = missing && nothingRecorded('coverage.py', ranOf(result));
    return { result, coverage: data, ...(missing ? { missing: why ?? missing } : {}) };
  }
  // Node runners: the script's own c8 or nyc where a full run keeps it, V8 coverage for every other run.
  const used = new Set<CoverageWrapper>();
  const result = await run(
    withInvocations(runner, (inv) => {
      const wrapper = gates.wrapperWords > 0 ? wrapperOf(inv.argv) : null;
      if (!wrapper) return withEnv({ NODE_V8_COVERAGE: join(dir, 'v8') })(inv);
      used.add(wrapper);
      return withWrapperReport(off(inv), wrapper, gates.wrapperWords, dir);
    }),
  );
  const v8 = existsSync(join(dir, 'v8')) ? await readV8Coverage(join(dir, 'v8'), root, isSourceFile) : null;
  let coverage = v8;
  for (const wrapper of used) {
    const report = await readReportDir(wrapperReportDir(dir, wrapper), root, isSourceFile);
    if (!report) return read(result, `the test script's ${wrapper}`, null);
    coverage = mergeCoverage(coverage ?? {}, report);
  }
  return read(result, 'V8 coverage (NODE_V8_COVERAGE)', coverage);
}

/** The run's coverage, or why the tool recorded nothing (`data` null: it wrote no report). */
function read<T>(result: T, tool: string, data: CoverageData | null): CoverageRun<T> {
  if (data) return { result, coverage: data };
  const run = ranOf(result);
  const exit = run ? ` (the run ended with exit code ${run.exitCode})` : '';
  return { result, coverage: {}, missing: nothingRecorded(tool, run) ?? `${tool} wrote no coverage report${exit}` };
}

/** The test run inside what the caller's `run` returned, when it is one. */
function ranOf(result: unknown): TestRun | null {
  return result && typeof result === 'object' && 'timedOut' in result && 'result' in result ? (result as TestRun) : null;
}

/**
 * One line on why a coverage tool recorded nothing, from how the run ended: killed at the test timeout (a test
 * that leaves a handle open keeps the runner from exiting, and a killed process writes no coverage), no test ran,
 * or the exit code. Null when the run ended normally with tests run (the tool's own words say more).
 */
export function nothingRecorded(tool: string, run: TestRun | null): string | null {
  if (!run) return null;
  if (run.timedOut)
    return `${tool} recorded nothing: the run did not end within the test timeout and was killed (a test left a timer, server or socket open, or the suite needs a longer --test-timeout)`;
  const ran = run.result.tests.filter((t) => t.status === 'passed' || t.status === 'failed').length;
  const first = (run.noTestRan?.message ?? run.result.errors[0]?.message ?? '').split('\n')[0]!.trim();
  if (ran === 0) return `${tool} recorded nothing: no test ran${first ? ` (${first})` : ''}`;
  return null;
}
