import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

type Run = { exitCode?: number; processExit?: number; outcome?: string; agentCalls: string[]; reason?: string; first?: object; last?: object };
type Verdicts = (row: Record<string, unknown>) => Record<string, boolean | null>;
const { verdicts } = (await import(pathToFileURL(fileURLToPath(new URL('../../scripts/corpus/run-project.mjs', import.meta.url))).href)) as { verdicts: Verdicts };

// object-inspect-aud as the corpus ran it: posttest `npx aud --production` cannot run here.
const STOP = "the test command's part `npx aud --production` (run after the tests) cannot run on this machine: it failed without a failing test and needs a program that is not here";
const row = (clean: Run, broken: Run) => ({ found: { runner: 'tape' }, expectedRunner: 'tape', expected: { broken: { passed: 187, failed: 12 }, fixed: { passed: 402, failed: 0 } }, clean, broken });

describe('corpus verdicts', () => {
  it('a stop before any agent call naming what cannot run here is what the issue asks of both runs; there are no fixed counts', () => {
    const stopped = (counts: object): Run => ({ exitCode: 1, processExit: 1, outcome: 'failure', agentCalls: [], reason: STOP, first: counts, last: counts });
    expect(verdicts(row(stopped({ passed: 402, failed: 0 }), stopped({ passed: 187, failed: 12 })))).toEqual({ runnerFound: true, cleanAtOnce: true, converged: true, brokenCounts: true, fixedCounts: null });
  });

  it('the same stop after agent calls, or any other failure, is not', () => {
    const called: Run = { exitCode: 1, processExit: 1, outcome: 'failure', agentCalls: ['analyze', 'fix'], reason: STOP, first: { passed: 187, failed: 12 }, last: { passed: 402, failed: 0 } };
    const degraded: Run = { exitCode: 1, processExit: 1, outcome: 'failure', agentCalls: [], reason: 'stopped after 3 degraded iterations', first: { passed: 402, failed: 0 }, last: { passed: 402, failed: 0 } };
    expect(verdicts(row(degraded, called))).toMatchObject({ cleanAtOnce: false, converged: false, fixedCounts: true });
  });
});
