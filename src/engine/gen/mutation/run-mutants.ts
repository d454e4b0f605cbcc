import { join } from 'node:path';
import type { TestRun, TestRunner } from '../../runners/runner.js';
import { declaredNames, fileOf, identityOf } from '../quality-observe.js';
import { failedByThrow } from './failure-kind.js';
import type { Mutant } from './types.js';
import { withMutant } from './with-mutant.js';

/** What one mutant's run said. */
export interface MutantOutcome {
  id: string;
  file: string;
  line: number;
  operator: Mutant['operator'];
  description: string;
  /**
   * `killed`: some test failed on it; `survived`: every test passed; `timeout`: the run hung past its bound
   * (counted killed, by no test in particular); `unviable`: no test ran (the mutant does not build or load);
   * `unreached`: not run, the coverage runs showed no new test runs its line (none can kill it).
   */
  status: 'killed' | 'survived' | 'timeout' | 'unviable' | 'unreached';
  /** The new tests (their `Observed` ids) that failed on it. */
  killedBy: string[];
  /** Those of them that failed only because the code threw (failure-kind.ts), not on a check of their own. */
  crashedBy?: string[];
  /** The project's existing tests that failed on it (none when the suite never runs its line); null: not run. */
  existingKilledBy: string[] | null;
  /** The runner's words for a timeout or an unviable mutant. */
  why?: string;
  /** The new tests this run judged, when not all of them (a run for the doubted tests on their own lines). */
  ranFor?: string[];
}

/** One changed module to mutate, with the existing tests that reach it (`all`: the import graph could not tell). */
export interface MutatedModule {
  file: string;
  mutants: Mutant[];
  existing: string[] | 'all';
}

export interface MutantRunOptions {
  runner: TestRunner;
  root: string;
  signal: AbortSignal;
  /** The test timeout: no run goes past it. */
  timeoutMs: number;
  /** The new tests to judge (those passing every stability run), by their `Observed` ids and files. */
  newTests: { id: string; file: string }[];
  modules: MutatedModule[];
  /** Ids of the existing tests passing before generation (a test failing already kills nothing); null: unknown. */
  passingBefore: ReadonlySet<string> | null;
  /**
   * How long a clean run of the new tests took (the stability runs): bounds the first mutant's run too, so a mutant
   * that loops for ever (an increment dropped) is named a hang in seconds, not at --test-timeout.
   */
  cleanMs?: number;
  /** At most this many mutant runs in all (the gate's budget). */
  maxRuns: number;
  /** The runner's selection of the new tests to run, when not their whole files (the existing tests stay out). */
  selection?: { files: string[]; names: string[] };
  /**
   * What the coverage runs said of a mutant's line (`<file>:<line>` in, or not): whether a new test runs it (a
   * mutant no new test reaches is not run), and whether the existing suite did before generation (if not, the
   * existing tests stay out of its run: they cannot kill it). Null or a line the tool does not count: unknown.
   */
  reach?: { newTests: (key: string) => boolean | null; existing: (key: string) => boolean | null };
  /** Where the original of the module under a mutant is kept during its run (see `restoreLeftMutant`). */
  journal?: string;
  /** Told before each run: which mutant, of how many. */
  onRun?: (mutant: Mutant, index: number, total: number) => void;
}

// More existing test files than this reaching a module: the whole suite runs instead of a list that long.
const MAX_EXISTING_FILES = 30;
// A mutant run past this many times the slowest clean run so far (and 10 s) has hung: an infinite loop the
// mutant made, not a slow suite.
const HANG_FACTOR = 10;
const HANG_FLOOR_MS = 10_000;

/** The modules' mutants taken in turn (one of each module, then the next), so a budget spreads over all of them. */
export function interleave(modules: readonly MutatedModule[]): { mutant: Mutant; module: MutatedModule }[] {
  const out: { mutant: Mutant; module: MutatedModule }[] = [];
  const longest = Math.max(0, ...modules.map((m) => m.mutants.length));
  for (let i = 0; i < longest; i++)
    for (const module of modules) if (module.mutants[i]) out.push({ mutant: module.mutants[i]!, module });
  return out;
}

/** At most `n` of the items at even steps, in order: a budget smaller than the list still spans all of it. */
export function evenly<T>(items: readonly T[], n: number): T[] {
  if (items.length <= n) return [...items];
  return Array.from({ length: Math.max(0, n) }, (_, i) => items[Math.floor((i * items.length) / n)]!);
}

const baseOf = (m: Mutant): Pick<MutantOutcome, 'id' | 'file' | 'line' | 'operator' | 'description'> => ({
  id: m.id,
  file: m.file,
  line: m.line,
  operator: m.operator,
  description: m.description,
});

function firstWords(run: TestRun): string {
  const text = [...run.result.errors.map((e) => e.message), run.noTestRan?.message ?? '', run.outputTail].join('\n');
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const key = lines.find((l) => /error|cannot|undefined:|panic/i.test(l)) ?? lines.at(-1) ?? 'the runner said nothing';
  return key.slice(0, 200);
}

/**
 * Runs the new tests (whole files, with the existing tests that reach the module) against each mutant, one run
 * per mutant, each with the mutant written in the module's place and the original put back after. A new test
 * failing on a mutant kills it; so does an existing one that passed before generation. At most `maxRuns` runs.
 */
export async function runMutants(o: MutantRunOptions): Promise<MutantOutcome[]> {
  const newFiles = [...new Set(o.newTests.map((t) => t.file))];
  const newIds = new Set(o.newTests.map((t) => t.id));
  const declared = declaredNames(o.root, newFiles);
  const outcomes: MutantOutcome[] = [];
  const key = (m: Mutant): string => `${m.file}:${m.line}`;
  const all = interleave(o.modules);
  for (const { mutant: m } of all.filter(({ mutant }) => o.reach?.newTests(key(mutant)) === false))
    outcomes.push({ ...baseOf(m), status: 'unreached', killedBy: [], existingKilledBy: null });
  // The runs go first to mutants no existing test reaches (only a new test can kill them), then span the rest.
  const reachable = all.filter(({ mutant }) => o.reach?.newTests(key(mutant)) !== false);
  const fresh = reachable.filter(({ mutant }) => o.reach?.existing(key(mutant)) === false);
  const queue = [
    ...evenly(fresh, o.maxRuns),
    ...evenly(
      reachable.filter((r) => !fresh.includes(r)),
      Math.max(0, o.maxRuns - fresh.length),
    ),
  ];
  let slowest = o.cleanMs ?? 0;
  for (const [index, { mutant, module }] of queue.entries()) {
    if (o.signal.aborted) break;
    o.onRun?.(mutant, index, queue.length);
    const bound = slowest > 0 ? Math.min(o.timeoutMs, Math.max(HANG_FLOOR_MS, HANG_FACTOR * slowest)) : o.timeoutMs;
    const unreachedBefore = o.reach?.existing(key(mutant)) === false;
    const existing = unreachedBefore
      ? []
      : module.existing === 'all' || module.existing.length > MAX_EXISTING_FILES
        ? null
        : module.existing;
    const files = existing ? [...newFiles, ...existing.filter((f) => !newFiles.includes(f))] : null;
    const opts = { cwd: o.root, timeoutMs: bound, signal: o.signal };
    const run = await withMutant(
      join(o.root, mutant.file),
      mutant.text,
      async () => {
        const subset = o.selection
          ? await o.runner.runSubset?.(opts, o.selection)
          : files
            ? await o.runner.runSubset?.(opts, { files, names: [] })
            : null;
        return subset ?? (await o.runner.run({ ...opts, scope: 'full' }));
      },
      o.journal,
    );
    if (o.signal.aborted) break;
    const base = baseOf(mutant);
    if (run.timedOut) {
      outcomes.push({
        ...base,
        status: 'timeout',
        killedBy: [],
        existingKilledBy: null,
        why: `the run hung past ${Math.round(bound / 1000)} s`,
      });
      continue;
    }
    if (run.result.tests.length === 0 || (run.noTestRan && !run.noTestRan.testsRan)) {
      outcomes.push({ ...base, status: 'unviable', killedBy: [], existingKilledBy: null, why: firstWords(run) });
      continue;
    }
    slowest = Math.max(slowest, run.durationMs);
    const killedBy = new Set<string>();
    const crashedBy = new Set<string>();
    const existingKilledBy = new Set<string>();
    let existingRan = false;
    for (const t of run.result.tests) {
      const file = fileOf(o.root, t, newFiles, declared);
      const id = file ? identityOf(file, t).id : null;
      if (id && newIds.has(id)) {
        if (t.status === 'failed') killedBy.add(id);
        if (t.status === 'failed' && failedByThrow(t)) crashedBy.add(id);
        continue;
      }
      if (file) continue; // a new test not judged here (failing every run, or flaky)
      existingRan = true;
      if (t.status === 'failed' && (!o.passingBefore || o.passingBefore.has(t.id))) existingKilledBy.add(t.id);
    }
    outcomes.push({
      ...base,
      status: killedBy.size + existingKilledBy.size > 0 ? 'killed' : 'survived',
      killedBy: [...killedBy],
      ...(crashedBy.size ? { crashedBy: [...crashedBy] } : {}),
      existingKilledBy: !o.selection && (existingRan || unreachedBefore) ? [...existingKilledBy] : null,
    });
  }
  return outcomes;
}
