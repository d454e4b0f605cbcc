import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

type Run = {
  exitCode?: number;
  processExit?: number;
  outcome?: string;
  agentCalls: string[];
  reason?: string;
  fullReason?: string;
  first?: object;
  last?: object;
};
type Verdicts = (row: Record<string, unknown>) => Record<string, boolean | null>;
const { verdicts } = (await import(
  pathToFileURL(fileURLToPath(new URL('../../scripts/corpus/run-project.mjs', import.meta.url))).href
)) as { verdicts: Verdicts };

// object-inspect-aud as the corpus ran it: posttest `npx aud --production` cannot run here.
const STOP =
  "the test command's part `npx aud --production` (run after the tests) cannot run on this machine: it failed without a failing test and needs a program that is not here";
const row = (clean: Run, broken: Run) => ({
  found: { runner: 'tape' },
  expectedRunner: 'tape',
  expected: { broken: { passed: 187, failed: 12 }, fixed: { passed: 402, failed: 0 } },
  clean,
  broken,
});

describe('corpus verdicts', () => {
  it('a stop before any agent call naming what cannot run here is what the issue asks of both runs; there are no fixed counts', () => {
    const stopped = (counts: object): Run => ({
      exitCode: 1,
      processExit: 1,
      outcome: 'failure',
      agentCalls: [],
      reason: STOP,
      first: counts,
      last: counts,
    });
    expect(verdicts(row(stopped({ passed: 402, failed: 0 }), stopped({ passed: 187, failed: 12 })))).toEqual({
      runnerFound: true,
      cleanAtOnce: true,
      converged: true,
      brokenCounts: true,
      fixedCounts: null,
    });
  });

  it('the same stop after agent calls, or any other failure, is not', () => {
    const called: Run = {
      exitCode: 1,
      processExit: 1,
      outcome: 'failure',
      agentCalls: ['analyze', 'fix'],
      reason: STOP,
      first: { passed: 187, failed: 12 },
      last: { passed: 402, failed: 0 },
    };
    const degraded: Run = {
      exitCode: 1,
      processExit: 1,
      outcome: 'failure',
      agentCalls: [],
      reason: 'stopped after 3 degraded iterations',
      first: { passed: 402, failed: 0 },
      last: { passed: 402, failed: 0 },
    };
    expect(verdicts(row(degraded, called))).toMatchObject({ cleanAtOnce: false, converged: false, fixedCounts: true });
  });

  // inquirer-lerna as the corpus ran it: one test opens /dev/tty, which fixcycle's runs do not have.
  const TTY =
    'the test `packages/inquirer/test/specs/inquirer.js::inquirer.prompt Non-TTY checks > No exception when using tty other than process.stdin` cannot run on this machine: it fails only because a terminal is not here';
  const tty = (clean: Run, broken: Run) => ({
    ...row(clean, broken),
    expected: { broken: { passed: 236, failed: 5 }, fixed: { passed: 240, failed: 1 } },
  });

  it('reads the whole reason: a long test id does not hide what it says behind the shown cut', () => {
    const clean: Run = {
      exitCode: 1,
      processExit: 1,
      outcome: 'failure',
      agentCalls: [],
      reason: TTY.slice(0, 140),
      fullReason: TTY,
      first: { passed: 240, failed: 1 },
      last: { passed: 240, failed: 1 },
    };
    expect(verdicts(tty(clean, clean))).toMatchObject({ cleanAtOnce: true });
  });

  it('a test that cannot run here, named after the agent fixed everything else (the fixed counts equal), is converged; short of that it is not', () => {
    const fixed: Run = {
      exitCode: 1,
      processExit: 1,
      outcome: 'failure',
      agentCalls: ['analyze', 'fix'],
      reason: TTY.slice(0, 140),
      fullReason: TTY,
      first: { passed: 236, failed: 5 },
      last: { passed: 240, failed: 1 },
    };
    expect(verdicts(tty(fixed, fixed))).toMatchObject({ converged: true, fixedCounts: true });
    const halfway: Run = { ...fixed, last: { passed: 238, failed: 3 } };
    expect(verdicts(tty(fixed, halfway))).toMatchObject({ converged: false, fixedCounts: false });
  });

  it('a part of the command left out because it cannot run here, after the agent fixed what runs (fixed counts equal), is converged', () => {
    const PART =
      'converged on what runs here (every test passes); not run: the test command\'s part `npm run test-headless` (it needs a browser that is not here): install what it needs and run the tests again, or leave it out with "skipParts": ["test-headless"] in fixcycle.config.json';
    const clean: Run = {
      exitCode: 1,
      processExit: 1,
      outcome: 'failure',
      agentCalls: [],
      reason: STOP,
      fullReason: STOP,
    };
    const fixed: Run = {
      exitCode: 1,
      processExit: 1,
      outcome: 'failure',
      agentCalls: ['analyze', 'fix'],
      reason: PART.slice(0, 140),
      fullReason: PART,
      first: { passed: 187, failed: 12 },
      last: { passed: 402, failed: 0 },
    };
    expect(verdicts(row(clean, fixed))).toMatchObject({ cleanAtOnce: true, converged: true, fixedCounts: true });
    expect(verdicts(row(clean, { ...fixed, last: { passed: 400, failed: 2 } }))).toMatchObject({ converged: false });
    // chai's `make test`: karma inside make cannot be left out, so the end names the step inside the command.
    const INSIDE =
      'converged on what runs here (every test passes); not run: a step inside `make test` failed (it needs a browser that is not here), after its tests passed: install what it needs and run the tests again, or pass --test-cmd with the steps that run here';
    const inside: Run = { ...fixed, reason: INSIDE.slice(0, 140), fullReason: INSIDE };
    expect(verdicts(row(clean, inside))).toMatchObject({ cleanAtOnce: true, converged: true, fixedCounts: true });
  });
});
