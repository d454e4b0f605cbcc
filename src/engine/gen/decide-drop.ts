import { failedForNoAssertion } from './mutation/failure-kind.js';

/** An L0 static finding on one test: a hint of where to look, never a reason to drop on its own. */
export interface StaticHint {
  check: string;
  message: string;
}

/** What the runner said of one new test: the facts a keep or a drop rests on. */
export interface TestEvidence {
  /** The runner reported it (its collection or a run's report named it). */
  collected: boolean;
  /** Its result in each run, in order, as the runner reported it. */
  statuses: readonly string[];
  /** How many runs in a row must agree (TestGen-LLM's 5). */
  runs: number;
  /** The runner's message for its last failure, or the reason it gave for a skip. */
  message?: string;
  /** L0's static findings on it (no assertion, constant assertion, placeholder). */
  hints?: readonly StaticHint[];
  /**
   * It covers a line or branch that the project's suite and the tests kept before it do not, by the project's
   * coverage tool (undefined: not measured).
   */
  addedCoverage?: boolean;
  /**
   * Mutants of the changed lines run against it (undefined: none was run); `addedCoverage` null when no coverage
   * tool could measure it (the mutant runs are then all the dynamic evidence there is).
   */
  mutation?: { killedMutants: number; addedCoverage: boolean | null; mutants?: number };
}

export type DropKind = 'not-collected' | 'flaky' | 'skipped' | 'placeholder' | 'checks-nothing';

export type Decision = { keep: true; note: string } | { keep: false; kind: DropKind; reason: string };

const CHECKS_NOTHING_HINTS = new Set(['no-assertion', 'constant-assertion', 'placeholder']);

const firstLine = (text: string | undefined): string => (text ?? '').split('\n')[0]!.trim().slice(0, 160);

/**
 * Keep or drop one new test, from what the runner said of it. Every drop cites a runner result: not collected,
 * flaky over the runs, skipped in every run, failing every run where L0 saw a placeholder, or checking nothing:
 * no mutant of the changed lines killed and no coverage added, or no mutant killed by a test L0 doubts (without a
 * mutant run, a static finding that the test's own coverage run agrees with). A static finding alone keeps the
 * test, and the note says so. That a test adds nothing the kept tests do not is no reason: it may be a copy, but a
 * real test that runs and checks is kept.
 */
export function decideDrop(e: TestEvidence): Decision {
  if (!e.collected)
    return { keep: false, kind: 'not-collected', reason: 'not collected: the runner did not report it' };
  const passes = e.statuses.filter((s) => s === 'passed').length;
  if (new Set(e.statuses).size > 1 || e.statuses.length < e.runs)
    return {
      keep: false,
      kind: 'flaky',
      reason: `flaky: passed ${passes} of ${e.statuses.length} runs (the same result ${e.runs} runs in a row is required)`,
    };
  const status = e.statuses[0];
  const hints = (e.hints ?? []).filter((h) => CHECKS_NOTHING_HINTS.has(h.check));
  const hinted = hints.length ? ` (L0: ${hints.map((h) => h.message).join('; ')})` : '';
  if (status === 'skipped')
    return {
      keep: false,
      kind: 'skipped',
      reason: `focused or skipped: the runner reports it skipped in all ${e.statuses.length} runs${e.message ? ` (${firstLine(e.message)})` : ''}, so it proves nothing`,
    };
  if (status === 'failed') {
    const placeholder = hints.find((h) => h.check === 'placeholder');
    if (placeholder)
      return {
        keep: false,
        kind: 'placeholder',
        reason: `placeholder: fails all ${e.statuses.length} runs (${firstLine(e.message) || 'the runner gave no message'}) and L0 found ${placeholder.message}`,
      };
    // The runner's own verdict that it checks nothing (ava fails a test that ran no assertion): no bug to fix.
    if (failedForNoAssertion(e))
      return {
        keep: false,
        kind: 'checks-nothing',
        reason: `checks nothing: the runner failed it in all ${e.statuses.length} runs for running no assertion (${firstLine(e.message)})${hinted}`,
      };
    return {
      keep: true,
      note: `fails all ${e.runs} runs: kept for the fix loop (it found a bug, or it is wrong itself)`,
    };
  }
  if (e.mutation) {
    const { killedMutants, addedCoverage, mutants } = e.mutation;
    if (killedMutants > 0)
      return {
        keep: true,
        note: `kills ${killedMutants}${mutants ? ` of ${mutants}` : ''} mutant(s) of the changed lines`,
      };
    const ofThem = `none of the ${mutants ?? ''}${mutants ? ' ' : ''}mutants of the changed lines`;
    if (addedCoverage === false)
      return {
        keep: false,
        kind: 'checks-nothing',
        reason: `checks nothing: it killed ${ofThem} and adds no coverage${hinted}`,
      };
    // L0 saw an assertion that cannot fail (a value compared with itself, a literal with a literal), and no mutant
    // made it fail: the lines it adds are run, not checked. (A test L0 sees no assertion in may assert through a
    // helper L0 cannot see; that one is kept below when it adds coverage.)
    const constant = hints.find((h) => h.check === 'constant-assertion');
    if (constant)
      return {
        keep: false,
        kind: 'checks-nothing',
        reason: `checks nothing: it killed ${ofThem}, and its assertion cannot fail (L0: ${constant.message}); the lines it adds are run, not checked`,
      };
    // No coverage tool here: for a test L0 doubts, the mutant runs agreeing with it are the dynamic check.
    if (addedCoverage === null && hints.length > 0)
      return {
        keep: false,
        kind: 'checks-nothing',
        reason: `checks nothing: it killed ${ofThem}, and no coverage tool could show it runs lines nothing else runs${hinted}`,
      };
    if (addedCoverage === null) return { keep: true, note: 'kills no mutant; coverage not measured' };
    // L0's doubt is a pattern: a test that runs lines nothing else runs is kept (a helper's assertions, pyflakes'
    // `self.flakes(...)`, are invisible to it), as the issue's rule reads: none killed and no coverage added.
    return { keep: true, note: 'kills no mutant, but covers lines no other test does' };
  }
  if (e.addedCoverage === false && hints.length > 0)
    return {
      keep: false,
      kind: 'checks-nothing',
      reason: `checks nothing: its own coverage run adds no line or branch the suite and the kept tests do not cover, and no mutant was run to show it checks something${hinted}`,
    };
  return {
    keep: true,
    note: `passes ${e.runs} of ${e.runs} runs${hints.length ? `; L0's finding is not confirmed by a run${hinted}` : ''}`,
  };
}
