import type { MutantOutcome } from './run-mutants.js';

/** Per changed module: the mutants made and run, and what the kept tests kill that the existing suite does not. */
export interface ModuleMutation {
  file: string;
  /** Mutants made of its changed lines (at most 20). */
  made: number;
  /** Mutants run within the gate's budget (unviable ones included). */
  run: number;
  /** Mutants not run: no new test runs their line (the coverage runs said so). */
  unreached: number;
  /** Mutants at least one kept new test failed on. */
  killedByKept: number;
  /** Of those, the ones no existing test failed on (Meta's ACH measure); null when no existing test reached it. */
  killedByKeptOnly: number | null;
  /** Mutants whose run hung: counted killed, by no test in particular. */
  timeouts: number;
  /** Mutants with which no test ran (they do not build or load). */
  unviable: number;
}

/** The mutation check as the quality report and the summary keep it. */
export interface MutationReport {
  modules: ModuleMutation[];
  /** Every mutant run, what it changed and who killed it. */
  outcomes: MutantOutcome[];
  /** Why no mutant ran, when none did (no language fixcycle mutates, no new test to judge). */
  note?: string;
}

/** The per-module figures, counting only the kept tests' kills. */
export function mutationReport(
  made: ReadonlyMap<string, number>,
  outcomes: readonly MutantOutcome[],
  kept: ReadonlySet<string>,
  note?: string,
): MutationReport {
  const modules = [...made.entries()].map(([file, count]) => {
    const all = outcomes.filter((o) => o.file === file);
    const mine = all.filter((o) => o.status !== 'unreached');
    const byKept = mine.filter((o) => o.killedBy.some((t) => kept.has(t)));
    const reached = byKept.filter((o) => o.existingKilledBy !== null);
    return {
      file,
      made: count,
      run: mine.length,
      unreached: all.length - mine.length,
      killedByKept: byKept.length,
      killedByKeptOnly:
        reached.length === 0 && byKept.length > 0
          ? null
          : reached.filter((o) => o.existingKilledBy!.length === 0).length,
      timeouts: mine.filter((o) => o.status === 'timeout').length,
      unviable: mine.filter((o) => o.status === 'unviable').length,
    };
  });
  return { modules, outcomes: [...outcomes], ...(note ? { note } : {}) };
}

/** One line per module: `index.js: 20 mutants made, 12 run, 9 killed by the kept tests, 5 of them by no existing test`. */
export function mutationLines(report: MutationReport): string[] {
  if (report.modules.length === 0) return [report.note ?? 'no changed module fixcycle can mutate'];
  return report.modules.map((m) => {
    const only =
      m.killedByKeptOnly === null
        ? 'no existing test was run against them'
        : `${m.killedByKeptOnly} of them by no existing test`;
    const left = m.made - m.run - m.unreached;
    const extra = [
      m.unreached ? `${m.unreached} on lines no new test runs (not run)` : '',
      left > 0 ? `${left} not run (the gate's budget)` : '',
      m.timeouts ? `${m.timeouts} hung (counted killed)` : '',
      m.unviable ? `${m.unviable} did not build or load (not counted)` : '',
    ].filter(Boolean);
    return `${m.file}: ${m.made} mutant(s) made, ${m.run} run, ${m.killedByKept} killed by the kept tests, ${only}${extra.length ? `; ${extra.join(', ')}` : ''}`;
  });
}

/**
 * What the mutant runs say of one new test, for its verdict: the mutants it killed, or that it killed none of
 * those run (each run passed it), naming a few.
 */
export function mutationEvidence(
  outcomes: readonly MutantOutcome[],
  test: string,
  checksOnly = false,
): { killed: number; ran: number; text: string } {
  const ran = outcomes.filter(
    (o) => (o.status === 'killed' || o.status === 'survived') && (!o.ranFor || o.ranFor.includes(test)),
  );
  const failed = ran.filter((o) => o.killedBy.includes(test));
  // `checksOnly`: a failure that is only the code throwing (every test running the mutant sees it) is no check of
  // the test's own; said apart, so a reader sees why it counts for nothing.
  const killed = checksOnly ? failed.filter((o) => !o.crashedBy?.includes(test)) : failed;
  const crashed = failed.filter((o) => !killed.includes(o));
  const names = (list: readonly MutantOutcome[]): string =>
    list
      .slice(0, 3)
      .map((o) => `${o.file}:${o.line} ${o.description}`)
      .join('; ') + (list.length > 3 ? `; ${list.length - 3} more` : '');
  if (ran.length === 0) return { killed: 0, ran: 0, text: 'no mutant of the changed lines ran' };
  if (killed.length > 0)
    return {
      killed: killed.length,
      ran: ran.length,
      text: `kills ${killed.length} of the ${ran.length} mutant(s) of the changed lines run (${names(killed)})`,
    };
  if (crashed.length > 0)
    return {
      killed: 0,
      ran: ran.length,
      text: `killed none of the ${ran.length} mutant(s) of the changed lines run by a check: it failed on ${crashed.length} only because the code threw (${names(crashed)}) and passed on the rest`,
    };
  return {
    killed: 0,
    ran: ran.length,
    text: `killed none of the ${ran.length} mutant(s) of the changed lines run: it passed on each (${names(ran)})`,
  };
}
