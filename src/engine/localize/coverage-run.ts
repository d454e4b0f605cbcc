import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { coverageSupport, withCoverage } from '../gen/coverage/measure.js';
import { preparePython } from '../gen/coverage/python.js';
import { CommandTestRunner } from '../runners/test-runner.js';
import type { RunTestsOptions, TestRun, TestRunner } from '../runners/runner.js';
import type { Failure } from '../types.js';
import { pythonContextUnits, runUnit, v8ProcessUnits, withTestContexts, type FailingSets } from './coverage-units.js';
import type { Granularity, SpectrumUnit } from './types.js';

/** Node runners that start one process per test file: V8 coverage tells their files apart. */
const PROCESS_PER_FILE = new Set(['node-test', 'tap']);
/** Node runners fixcycle measures with V8 coverage (gen's own tool or none of their own). */
const V8_NODE = new Set(['node-test', 'tap', 'tape', 'mocha', 'ava', 'uvu']);

/** The granularity each runner's coverage run gives, or null when fixcycle cannot measure it. */
export function granularityOf(runner: string): Granularity | null {
  if (runner === 'pytest') return 'test';
  if (PROCESS_PER_FILE.has(runner)) return 'file';
  if (V8_NODE.has(runner) || runner === 'jest' || runner === 'vitest' || runner === 'go') return 'run';
  return null;
}

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
 * One coverage run of the failing tests' files, and for a runner that tells files apart, of the passing test
 * files that load the same source files (the affected-test graph picks them). Null with a reason when the
 * runner cannot be measured.
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
  const failing: FailingSets = {
    files: new Set(input.failures.flatMap((f) => (f.file ? [f.file] : []))),
    ids: input.failures.map((f) => f.id),
  };
  const failingFiles = [...failing.files];
  // Passing files cost a process each: at most half as many as the failing ones keep the run near the cost of
  // re-running the failures. A runner that mixes every file into one process gains nothing from them.
  const extra = granularity === 'file' ? input.neighbours.slice(0, Math.ceil(failingFiles.length / 2)) : [];
  const files = [...failingFiles, ...extra];
  const options = { cwd: root, timeoutMs: input.timeoutMs, signal: input.signal };
  const all: RunTestsOptions = {
    ...options,
    scope: 'affected',
    changedFiles: [],
    lastFailures: input.failures.map((f) => ({ id: f.id, file: f.file })),
  };
  // A failure placed in no file can only be re-run with the whole suite.
  const runIt = async (r: TestRunner): Promise<TestRun> =>
    files.length > 0 && input.failures.every((f) => f.file) && r.runSubset
      ? ((await r.runSubset(options, { files, names: [] })) ?? r.run(all))
      : r.run(all);
  const ran = (run: TestRun): string =>
    run.selection ? `${run.selection.files.length} test file(s)` : 'the whole suite';
  if (V8_NODE.has(runner.name)) {
    const dir = mkdtempSync(join(tmpdir(), 'fixcycle-localize-'));
    try {
      const v8 = join(dir, 'v8');
      const measured = runner.withInvocations((inv) => ({ ...inv, env: { ...inv.env, NODE_V8_COVERAGE: v8 } }));
      const run = await runIt(measured);
      let units = await v8ProcessUnits(v8, root, failing);
      // One process ran every file: its unit is the run.
      if (granularity === 'file' && units.length <= 1) units = units.map((u) => ({ ...u, failed: true }));
      return { units, granularity: units.length > 1 ? granularity : 'run', ran: ran(run) };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  if (runner.name === 'pytest') {
    const dir = mkdtempSync(join(tmpdir(), 'fixcycle-localize-'));
    try {
      const python = preparePython(dir, root);
      withTestContexts(dir);
      const run = await runIt(runner.withInvocations(python.env));
      const { units, missing } = await pythonContextUnits(dir, root, failing);
      return { units, granularity, ran: ran(run), ...(missing ? { missing } : {}) };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const support = coverageSupport(runner, root);
  if (!support.ok) return { skipped: support.reason };
  // jest's V8 provider skips babel's instrumentation: the same lines, in a fraction of the time.
  const fast =
    runner.name === 'jest'
      ? runner.withInvocations((inv) => ({ ...inv, argv: [...inv.argv, '--coverageProvider=v8'] }))
      : runner;
  const measured = await withCoverage(fast, root, [], runIt);
  const units = Object.keys(measured.coverage).length > 0 ? [runUnit(measured.coverage)] : [];
  return { units, granularity, ran: ran(measured.result), ...(measured.missing ? { missing: measured.missing } : {}) };
}
