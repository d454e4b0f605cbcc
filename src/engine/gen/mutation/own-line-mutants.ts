import { node, type GenContext } from '../gen-context.js';
import type { Waiting } from '../judge-coverage.js';
import { selectionOf } from '../own-checks.js';
import type { Verdicts } from '../quality-verdicts.js';
import { mutantJournal, pythonFor, type MutationRuns } from './check-mutants.js';
import { makeMutants, mutationLanguage } from './make-mutants.js';
import { mutationEvidence } from './mutation-report.js';
import { runMutants, type MutantOutcome, type MutatedModule } from './run-mutants.js';
import type { Mutant } from './types.js';

/**
 * Runs for the doubted tests the first mutant runs would drop, on top of those runs: each about one run of those
 * tests alone, cheaper than a run of the suite. Within the gate's budget (gen_gate_ratio <= 2.0 in the bench).
 */
export const MAX_OWN_LINE_RUNS = 6;

/** A doubted test that killed none of the mutants run and adds no coverage: the changed lines it runs itself. */
interface Candidate {
  w: Waiting;
  lines: ReadonlySet<string>;
}

/**
 * The doubted tests about to be dropped as checking nothing, given their own chance: a few mutants not run yet,
 * on the changed lines each of them runs, each run against those tests alone. With 4 mutants spread over a module,
 * a real test asserting through a helper L0 cannot read (pyflakes' `self.flakes(...)`) may never meet a mutant on
 * its own lines; one that fails on one by a check of its own checks something. Each run takes the mutant whose
 * line the most of the tests not yet shown to check anything run; a failure only because the code threw is no
 * check (failure-kind.ts), so a smoke test calling the code stays dropped.
 */
export async function ownLineMutants(
  ctx: GenContext,
  waiting: readonly Waiting[],
  runs: MutationRuns,
  v: Verdicts,
  cleanMs?: number,
): Promise<MutantOutcome[]> {
  let left: Candidate[] = waiting
    .filter(
      (w) =>
        v.hintsOf(w.t).length > 0 &&
        // Adding coverage keeps a doubted test, unless L0 saw its assertion cannot fail (decide-drop.ts).
        (w.addedCoverage === false || v.hintsOf(w.t).some((h) => h.check === 'constant-assertion')) &&
        (w.lines?.size ?? 0) > 0 &&
        mutationEvidence(runs.outcomes, w.t.id, true).killed === 0,
    )
    .map((w) => ({ w, lines: w.lines! }));
  if (left.length === 0) return [];
  // How many of the doubted tests measured alone run each changed line: a line every one of them runs (the module's
  // top level, a common entry point) tells them apart least, so the mutants go first to the others.
  const measured = waiting.filter((w) => v.hintsOf(w.t).length > 0 && w.lines);
  const runBy = new Map<string, number>();
  for (const w of measured) for (const k of w.lines!) runBy.set(k, (runBy.get(k) ?? 0) + 1);
  const ranAlready = new Set(runs.outcomes.map((o) => `${o.file}:${o.line} ${o.description}`));
  const byFile = new Map<string, Set<number>>();
  for (const c of left)
    for (const k of c.lines) {
      const at = k.lastIndexOf(':');
      const file = k.slice(0, at);
      if (!mutationLanguage(file)) continue;
      if (!byFile.has(file)) byFile.set(file, new Set());
      byFile.get(file)!.add(Number(k.slice(at + 1)));
    }
  const pool: { mutant: Mutant; module: MutatedModule }[] = [];
  for (const [file, lines] of byFile) {
    const specific = (line: number): boolean => (runBy.get(`${file}:${line}`) ?? 0) < measured.length;
    const mutants = await makeMutants(
      ctx.repo.root,
      { file, lines: [...lines] },
      pythonFor(ctx.runner),
      () => true,
      specific,
    ).catch(() => []);
    const module: MutatedModule = { file, mutants, existing: [] };
    for (const mutant of mutants)
      if (!ranAlready.has(`${mutant.file}:${mutant.line} ${mutant.description}`)) pool.push({ mutant, module });
  }
  const outcomes: MutantOutcome[] = [];
  const runFor = (m: Mutant): Candidate[] => left.filter((c) => c.lines.has(`${m.file}:${m.line}`));
  for (let run = 0; run < MAX_OWN_LINE_RUNS && left.length > 0 && !ctx.signal.aborted; run++) {
    // The mutant on the line fewest doubted tests run, of those a test left runs; then the one most of them run.
    const next = pool
      .map((p) => ({ ...p, for: runFor(p.mutant), by: runBy.get(`${p.mutant.file}:${p.mutant.line}`) ?? 0 }))
      .filter((p) => p.for.length > 0)
      .reduce<{ mutant: Mutant; module: MutatedModule; for: Candidate[]; by: number } | null>(
        (best, p) => (!best || p.by < best.by || (p.by === best.by && p.for.length > best.for.length) ? p : best),
        null,
      );
    if (!next) break;
    pool.splice(
      pool.findIndex((p) => p.mutant.id === next.mutant.id),
      1,
    );
    const tests = next.for.map((c) => c.w.t);
    const selections = tests.map((t) => selectionOf(ctx.runner.name, t));
    node(
      ctx,
      'IMPL-001.5',
      'running',
      `mutant on their own lines ${run + 1}: ${next.mutant.file}:${next.mutant.line} ${next.mutant.description}, for ${tests.length} doubted test(s)`,
    );
    const [outcome] = await runMutants({
      runner: ctx.runner,
      root: ctx.repo.root,
      signal: ctx.signal,
      timeoutMs: ctx.options.testTimeoutMs,
      newTests: tests.map((t) => ({ id: t.id, file: t.file })),
      modules: [{ ...next.module, mutants: [next.mutant], existing: [] }],
      passingBefore: null,
      maxRuns: 1,
      selection: {
        files: [...new Set(selections.flatMap((s) => s.files))],
        names: [...new Set(selections.flatMap((s) => s.names))],
      },
      ...(cleanMs ? { cleanMs } : {}),
      journal: mutantJournal(ctx.session.paths.dir),
    });
    if (!outcome) break;
    const judged = { ...outcome, ranFor: tests.map((t) => t.id) };
    outcomes.push(judged);
    left = left.filter((c) => mutationEvidence([judged], c.w.t.id, true).killed === 0);
  }
  return outcomes;
}
