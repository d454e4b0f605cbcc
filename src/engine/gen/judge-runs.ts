import { absentExport } from './absent-export.js';
import { decideDrop } from './decide-drop.js';
import { missingImportedName, missingTestData } from './missing-data.js';
import type { Observed, Uncollected } from './quality-observe.js';
import type { Verdicts } from './quality-verdicts.js';

const firstLine = (text: string | undefined): string => (text ?? '').split('\n')[0]!.slice(0, 160);

/**
 * The stability runs' verdicts: files the runner could not collect alone, tests flipping between runs (flaky),
 * skipped in every run, or failing every run where the failure is no bug of the code (an import the module does not
 * provide, a data file that is not there, a placeholder). The others, passing or failing every run, go on.
 */
export async function judgeRuns(
  root: string,
  tests: ReadonlyMap<string, Observed>,
  uncollected: readonly Uncollected[],
  v: Verdicts,
): Promise<Observed[]> {
  for (const u of uncollected) {
    // The runner's words are the reason; L0's findings in the file say what kind of test would have stood there
    // (a placeholder whose unused imports the project's compiler refuses).
    const hints = v.hintsOf({ file: u.file, path: [] });
    const hinted = hints.length > 0 ? `; L0 on the file: ${[...new Set(hints.map((h) => h.message))].join('; ')}` : '';
    v.reject(
      { id: u.file, file: u.file },
      `does not collect: the runner could not load it or found no test in it, run alone (${u.error})${hinted}`,
    );
  }
  const stable: Observed[] = [];
  for (const t of tests.values()) {
    const verdict = decideDrop(v.evidence(t));
    if (!verdict.keep && verdict.kind === 'flaky') {
      v.drop(t, verdict.reason);
      continue;
    }
    // Failing every run for a file of its own that is not here: no fix of the code makes it pass.
    const missing = t.statuses[0] === 'failed' ? missingTestData(root, t.file, t.message) : null;
    const ghost = t.statuses[0] === 'failed' ? missingImportedName(root, t.file, t.message) : null;
    // No TypeError names it (an assertion on `typeof walk` fails instead): node loading the module says it.
    const absent =
      t.statuses[0] === 'failed' && verdict.keep && !ghost && !missing
        ? await absentExport(root, t.file, t.path)
        : null;
    if (ghost)
      v.drop(
        t,
        `export: calls ${ghost}, which it imports but the module does not provide (${firstLine(t.message)}): a hallucinated API`,
      );
    else if (absent)
      v.drop(
        t,
        `export: uses ${absent.name} from ${absent.from}, which the module does not provide when node loads it, and fails every run (${firstLine(t.message)}): a hallucinated API`,
      );
    else if (missing)
      v.drop(
        t,
        `needs data that is not here: it reads ${missing}, which does not exist (${firstLine(t.message)}); a test brings or makes the files it reads`,
      );
    else if (!verdict.keep) v.drop(t, verdict.reason);
    else stable.push(t);
  }
  return stable;
}
