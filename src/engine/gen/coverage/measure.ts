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

/** Nothing is set on fixcycle's own environment, so runs with and without coverage can go on at the same time. */
function withInvocations(runner: TestRunner, change: (inv: Invocation) => Invocation): TestRunner {
  return runner instanceof CommandTestRunner ? runner.withInvocations(change) : runner;
}

const withEnv = (vars: Record<string, string>) => (inv: Invocation): Invocation => ({ ...inv, env: { ...inv.env, ...vars } });

/**
 * Runs `run` with coverage switched on (V8 coverage for every Node process it starts, a Go cover profile, or
 * jest's own) and reads the coverage of the project's source files.
 */
export async function withCoverage<T>(runner: TestRunner, root: string, ensure: readonly string[], run: (runner: TestRunner) => Promise<T>): Promise<{ result: T; coverage: CoverageData }> {
  const dir = mkdtempSync(join(tmpdir(), 'fixcycle-cov-'));
  try {
    if (runner.name === 'go') {
      const profile = join(dir, 'cover.out');
      const flags = [process.env.GOFLAGS, `-coverprofile=${profile}`, '-covermode=count'].filter(Boolean).join(' ');
      const result = await run(withInvocations(runner, withEnv({ GOFLAGS: flags })));
      return { result, coverage: await readGoProfile(profile, root, isSourceFile) };
    }
    if (runner.name === 'jest') {
      const jestArgs = ['--coverage', '--coverageReporters=json', `--coverageDirectory=${dir}`];
      const result = await run(withInvocations(runner, (inv) => ({ ...inv, argv: [...inv.argv, ...jestArgs] })));
      return { result, coverage: await readIstanbulJson(join(dir, 'coverage-final.json'), root, isSourceFile) };
    }
    const result = await run(withInvocations(runner, withEnv({ NODE_V8_COVERAGE: dir })));
    return { result, coverage: await readV8Coverage(dir, root, isSourceFile, ensure) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
