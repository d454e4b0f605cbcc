import { decideDrop } from './decide-drop.js';
import type { Waiting } from './judge-coverage.js';
import { mutationEvidence } from './mutation/mutation-report.js';
import type { MutantOutcome } from './mutation/run-mutants.js';
import type { Verdicts } from './quality-verdicts.js';

/**
 * The verdicts that waited for the mutant runs: a test that kills a mutant of the changed lines checks something
 * the change can break, and is kept; one that kills none is dropped when it adds no coverage, or when L0 doubts it
 * (it runs the lines and checks nothing), the runs named. Without a mutant run, only a doubted test adding no
 * coverage is dropped. `keepCopies` (--keep-redundant) keeps an undoubted test the runs would drop.
 */
export function judgeMutants(
  waiting: readonly Waiting[],
  outcomes: readonly MutantOutcome[],
  v: Verdicts,
  keepCopies: boolean,
): string[] {
  const copiesKept: string[] = [];
  for (const { t, addedCoverage } of waiting) {
    // A doubted test shows it checks something by failing on a check of its own, not only by the code throwing.
    const ran = mutationEvidence(outcomes, t.id, v.hintsOf(t).length > 0);
    const runs = ran.ran === 0 ? ran.text : `it ${ran.text}`;
    const verdict = decideDrop(
      v.evidence(t, {
        ...(addedCoverage === null ? {} : { addedCoverage }),
        ...(ran.ran > 0 ? { mutation: { killedMutants: ran.killed, addedCoverage, mutants: ran.ran } } : {}),
      }),
    );
    if (verdict.keep) v.keep(t, `${verdict.note}; ${runs}`, 0);
    else if (keepCopies && v.hintsOf(t).length === 0) {
      copiesKept.push(t.id);
      v.keep(t, `kept by --keep-redundant: ${verdict.reason}; ${runs}`, 0);
    } else v.drop(t, `${verdict.reason}; ${runs}`);
  }
  return copiesKept;
}
