import { tmpdir } from 'node:os';
import { execa } from 'execa';
import type { Invocation } from '../../runners/invocation.js';
import { testCommandEnv } from '../../runners/run-env.js';
import type { TestRunner } from '../../runners/runner.js';
import { CommandTestRunner } from '../../runners/test-runner.js';
import { wrapperOf } from './wrappers.js';

/**
 * The options that switch off what the project's own coverage tool does to a run's exit code, so that a missed
 * threshold never reads as a failing run (the tests' results are what gen judges): c8's and nyc's
 * --check-coverage (and c8's --100 shortcut, which turns it back on), jest's coverageThreshold, and pytest-cov
 * altogether (--no-cov: its tracer would take over from fixcycle's coverage.py, and its --cov-fail-under fail the run).
 */
export interface OwnCoverageGates {
  /** The words of the c8 or nyc the command starts with (0 when none). */
  wrapperWords: number;
  /** Whether the project's pytest loads pytest-cov (asked of pytest itself: its --help lists --no-cov). */
  pytestCov: boolean;
}

const WRAPPER_OFF = { c8: ['--check-coverage=false', '--100=false'], nyc: ['--check-coverage=false'] } as const;
const JEST_OFF = '--coverageThreshold={}';

/** The invocation with the project's coverage thresholds off (placed after the user's own options: the last one wins). */
export function ownGatesOff(inv: Invocation, runner: string, gates: OwnCoverageGates): Invocation {
  let argv = inv.argv;
  const wrapper = gates.wrapperWords > 0 ? wrapperOf(argv) : null;
  // Each change is made once, whether or not the runner already had it (gen's runner, then a coverage run).
  if (wrapper && !argv.includes(WRAPPER_OFF[wrapper][0]))
    argv = [...argv.slice(0, gates.wrapperWords), ...WRAPPER_OFF[wrapper], ...argv.slice(gates.wrapperWords)];
  if (runner === 'jest' && !argv.includes(JEST_OFF)) argv = [...argv, JEST_OFF];
  if (runner === 'pytest' && gates.pytestCov && !argv.includes('--no-cov')) argv = [...argv, '--no-cov'];
  return argv === inv.argv ? inv : { ...inv, argv };
}

const pytestCovAnswers = new Map<string, Promise<boolean>>();

/** Whether this project's pytest command loads pytest-cov: its own --help says (it reads the project's config and plugins). */
export function pytestLoadsCov(runner: TestRunner, root: string): Promise<boolean> {
  if (runner.name !== 'pytest' || !(runner instanceof CommandTestRunner)) return Promise.resolve(false);
  const inv = runner.commands.full(tmpdir());
  const cwd = inv.cwd ?? root;
  const key = JSON.stringify([cwd, inv.argv, inv.env]);
  let answer = pytestCovAnswers.get(key);
  if (!answer) {
    const [file, ...args] = inv.argv;
    answer = execa(file!, [...args, '--help'], {
      cwd,
      env: testCommandEnv(inv.env),
      reject: false,
      timeout: 60_000,
      stdin: 'ignore',
    }).then((r) => /^\s+--no-cov\b/m.test(String(r.stdout)));
    pytestCovAnswers.set(key, answer);
  }
  return answer;
}

/** What the project's coverage options do in this runner's runs, asked once. */
export async function ownCoverageGates(runner: TestRunner, root: string): Promise<OwnCoverageGates> {
  const wrapperWords = runner instanceof CommandTestRunner ? runner.wrappers.flat().length : 0;
  return { wrapperWords, pytestCov: await pytestLoadsCov(runner, root) };
}

/**
 * The runner gen and team run the tests with: the project's command as it is, less its coverage thresholds and
 * pytest-cov (gen measures coverage itself, and a threshold the new tests do not reach yet is no failure).
 */
export async function withoutOwnCoverageGates(runner: CommandTestRunner, root: string): Promise<CommandTestRunner> {
  const gates = await ownCoverageGates(runner, root);
  const name = runner.name;
  if (gates.wrapperWords === 0 && name !== 'jest' && !gates.pytestCov) return runner;
  return runner.withInvocations((inv) => ownGatesOff(inv, name, gates));
}
