import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CoverageData } from './model.js';
import { CommandTestRunner } from '../../runners/test-runner.js';
import type { Invocation } from '../../runners/invocation.js';
import type { TestRunner } from '../../runners/runner.js';
import { readGoProfile } from './go-profile.js';
import { readIstanbulJson } from './istanbul-json.js';
import { readV8Coverage } from './v8.js';
import { isSourceFile } from '../source-files.js';

/** Runners whose tests load the project's files as they are, so V8's own coverage maps straight onto them. */
const V8_RUNNERS = new Set(['node-test', 'mocha', 'tape']);

/** Whether gen can measure coverage for this runner, and why not when it cannot. */
export function coverageSupport(runner: string): { ok: true; how: string } | { ok: false; reason: string } {
  if (V8_RUNNERS.has(runner)) return { ok: true, how: 'V8 coverage (NODE_V8_COVERAGE) mapped to lines and branches by v8-to-istanbul' };
  if (runner === 'go') return { ok: true, how: 'go test -coverprofile (through GOFLAGS), lines only: Go profiles carry no branch data' };
  if (runner === 'jest') return { ok: true, how: "jest's own --coverage (json reporter), read from coverage-final.json by istanbul-lib-coverage" };
  return { ok: false, reason: `fixcycle cannot measure coverage for the ${runner} runner yet (it measures node:test, mocha and tape through V8 coverage, and go through -coverprofile)` };
}

/** Sets environment variables for the duration of `run`; the test command inherits them. */
async function withEnv<T>(vars: Record<string, string>, run: () => Promise<T>): Promise<T> {
  const previous = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  Object.assign(process.env, vars);
  try {
    return await run();
  } finally {
    for (const [k, v] of Object.entries(previous)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

/**
 * Runs `run` with coverage switched on (V8 coverage for every Node process it starts, or a Go cover profile)
 * and reads the coverage of the project's source files. The variable is set on fixcycle's own environment for
 * the duration of the run, which the test command inherits.
 */
/** The runner with its own coverage switched on, writing its json report to `dir` (jest). */
function withCoverageArgs(runner: TestRunner, dir: string): TestRunner {
  if (!(runner instanceof CommandTestRunner)) return runner;
  const add = (inv: Invocation): Invocation => ({ ...inv, argv: [...inv.argv, '--coverage', '--coverageReporters=json', `--coverageDirectory=${dir}`] });
  const c = runner.commands;
  return new CommandTestRunner({ ...c, full: (d) => add(c.full(d)), subset: (d, s) => { const inv = c.subset(d, s); return inv && add(inv); }, related: (d, f) => { const inv = c.related(d, f); return inv && add(inv); } }, runner.detectedFrom);
}

export async function withCoverage<T>(runner: TestRunner, root: string, ensure: readonly string[], run: (runner: TestRunner) => Promise<T>): Promise<{ result: T; coverage: CoverageData }> {
  const dir = mkdtempSync(join(tmpdir(), 'fixcycle-cov-'));
  try {
    if (runner.name === 'go') {
      const profile = join(dir, 'cover.out');
      const flags = [process.env.GOFLAGS, `-coverprofile=${profile}`, '-covermode=count'].filter(Boolean).join(' ');
      const result = await withEnv({ GOFLAGS: flags }, () => run(runner));
      return { result, coverage: await readGoProfile(profile, root, isSourceFile) };
    }
    if (runner.name === 'jest') {
      const result = await run(withCoverageArgs(runner, dir));
      return { result, coverage: await readIstanbulJson(join(dir, 'coverage-final.json'), root, isSourceFile) };
    }
    const result = await withEnv({ NODE_V8_COVERAGE: dir }, () => run(runner));
    return { result, coverage: await readV8Coverage(dir, root, isSourceFile, ensure) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
