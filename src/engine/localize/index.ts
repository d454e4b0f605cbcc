import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { TestRunner } from '../runners/runner.js';
import type { Failure, RunError } from '../types.js';
import { cacheSpectrum, readCachedSpectrum, spectrumKey } from './cache.js';
import { changeBase, changedLinesSince, type ChangedLines } from './change.js';
import { runSpectrum, type SpectrumRun } from './coverage-run.js';
import { functionsOf, type FunctionSpan } from './functions.js';
import { ochiai } from './ochiai.js';
import { namedIn, rankFunctions, scoreLines, type ScoredLine } from './rank.js';
import { reachOf } from './reached.js';
import { tscOutputs } from './built-sources.js';
import { builtToSource, moveLines } from './moved-lines.js';
import { unshippedSources, unshippedToBuilt, type Generated } from './unshipped-sources.js';
import { sourceFrames } from './stack-frames.js';
import { calledFunctions } from './called-functions.js';
import { testCalls } from './test-calls.js';
import { relatedFailures } from './unrelated.js';
import type { EvidenceKind, Localization } from './types.js';

export type { Localization, Suspect, EvidenceKind, Granularity } from './types.js';
export { granularityOf } from './coverage-run.js';
export { recordGreenTests } from './green-commits.js';

/** Suspects kept in the record; the prompt shows fewer. */
export const MAX_SUSPECTS = 10;

export interface LocalizeInput {
  root: string;
  runner: TestRunner;
  failures: readonly Failure[];
  /** Errors that ended a run outside any test (crashes, load errors): localized from their stack and file. */
  errors?: readonly RunError[];
  timeoutMs: number;
  signal?: AbortSignal;
  /** Skip the coverage run (stack frames and the change only). */
  noCoverage?: boolean;
  /** The base of the change evidence, when the caller knows it better than the green-commit record. */
  changeBase?: string | null;
  /** The user's HEAD when the session's snapshot holds their uncommitted changes (a loop in its own worktree). */
  startedFrom?: string;
}

/** An error that ended a run, as a failure of the file it names: its stack is the evidence it leaves. */
function errorAsFailure(error: RunError, k: number): Failure {
  const first = error.message.split('\n')[0]!.slice(0, 120);
  return {
    id: `error ${k + 1}: ${first}`,
    name: '',
    ...(error.file ? { file: error.file } : {}),
    message: error.message,
    criticality: 'high',
    criticality_source: 'default',
  };
}

/** Localization with the line ranking kept, for measuring it. */
export interface DetailedLocalization extends Localization {
  lines: ScoredLine[];
}

/**
 * Ranks the code locations most likely at fault for these failures, before any agent is asked: coverage
 * spectra (Ochiai) from one coverage run of the failing tests (cached per commit), the failures' stack frames
 * in the project's source, and the lines changed since the tests last passed.
 */
export async function localize(input: LocalizeInput): Promise<DetailedLocalization> {
  const started = Date.now();
  const { root } = input;
  const used: EvidenceKind[] = [];
  const notes: string[] = [];
  const { related, timeouts } = relatedFailures([...input.failures, ...(input.errors ?? []).map(errorAsFailure)]);
  const failures = related;
  if (timeouts.length > 0)
    notes.push(`failures: ${timeouts.length} test(s) stopped by their time limit left out of the failing tests`);
  const frames = sourceFrames(failures, root);
  if (frames.length > 0) used.push('stack');
  else notes.push("stack: no frame of the failures is in the project's own source");

  const base =
    input.changeBase !== undefined
      ? input.changeBase
        ? { base: input.changeBase, why: `since ${input.changeBase.slice(0, 7)}` }
        : { base: null, why: 'no base given' }
      : await changeBase(
          root,
          failures.map((f) => f.id),
          input.startedFrom,
        );
  let changed: ChangedLines = new Map();
  if (base.base) changed = await changedLinesSince(root, base.base);
  if (changed.size > 0) used.push('change');
  else notes.push(`change: ${base.base ? `no source line changed ${base.why}` : base.why}`);

  const testFiles = [...new Set(failures.flatMap((f) => (f.file ? [f.file] : [])))];
  const reach = await reachOf(root, testFiles).catch(() => ({ sources: [], neighbours: [] }));
  // Each candidate file's functions. What the failing tests load, and the calls in their code, are read while
  // the coverage run goes on: they are what the ranking needs most, and the run mostly waits on the runner.
  const functions = new Map<string, FunctionSpan[]>();
  const missing = new Set<string>();
  const readFunctions = async (files: Iterable<string>): Promise<void> => {
    for (const file of files) {
      if (functions.has(file)) continue;
      const text = await readFile(join(root, file), 'utf8').catch(() => null);
      if (text === null) missing.add(file);
      functions.set(file, text === null ? [] : await functionsOf(file, text).catch(() => []));
    }
  };
  const early = Promise.all([testCalls(failures, root), readFunctions(reach.sources)]);
  // Awaited after the coverage run, which may throw first: until then its rejection is not an unhandled one.
  early.catch(() => undefined);
  let spectrum: SpectrumRun | null = null;
  let cached = false;
  if (input.noCoverage) notes.push('coverage: not measured (turned off)');
  else {
    const key = await spectrumKey(
      root,
      input.runner.name,
      failures.map((f) => f.id),
    );
    spectrum = key ? await readCachedSpectrum(root, key) : null;
    cached = spectrum !== null;
    if (!spectrum) {
      const outcome = await runSpectrum({
        root,
        runner: input.runner,
        failures,
        neighbours: reach.neighbours,
        timeoutMs: input.timeoutMs,
        signal: input.signal,
      });
      if ('skipped' in outcome) notes.push(`coverage: ${outcome.skipped}`);
      else {
        spectrum = outcome;
        if (key && outcome.units.length > 0) await cacheSpectrum(root, key, outcome);
      }
    }
    if (spectrum?.missing) notes.push(`coverage: ${spectrum.missing}`);
    if (spectrum && !spectrum.units.some((u) => u.failed)) {
      if (!spectrum.missing) notes.push("coverage: the run measured no line of the project's source");
      spectrum = null;
    }
    if (spectrum) used.push('coverage');
  }

  const [calls] = await early;
  const spectra = spectrum ? { ...ochiai(spectrum.units), granularity: spectrum.granularity } : null;
  const rankInput = {
    spectrum: spectra,
    frames,
    changed,
    changeBase: base.base ?? undefined,
    functions,
    failing: {
      names: failures.map((f) => f.name).filter(Boolean),
      files: failures.flatMap((f) => (f.file ? [f.file] : [])),
      calls,
      loads: new Set(reach.sources),
    },
  };
  let lines = scoreLines(rankInput);
  await readFunctions(new Set(lines.map((l) => l.file)));
  // A map leading to a source the project does not ship: the built file it maps is what ran.
  const unshipped = await unshippedSources(root, missing).catch(() => new Map<string, Generated>());
  if (unshipped.size > 0) {
    lines = moveLines(lines, unshippedToBuilt(unshipped));
    await readFunctions(new Set(lines.map((l) => l.file)));
  }
  // Built output without a source map (tsc's outDir) is read back in the source a user edits.
  const outputs = lines.some((l) => /\.[cm]?js$/.test(l.file))
    ? await tscOutputs(root).catch(() => new Map<string, string>())
    : new Map<string, string>();
  if (outputs.size > 0) {
    await readFunctions([...new Set(lines.flatMap((l) => (outputs.has(l.file) ? [outputs.get(l.file)!] : [])))]);
    lines = moveLines(lines, builtToSource(outputs, rankInput.functions));
  }
  // Without coverage nothing but the stack names a function: the ones the failing tests call or name join.
  const names = rankInput.failing.names;
  if (!spectra && (calls.size > 0 || names.length > 0))
    lines.push(
      ...(await calledFunctions(root, (own) => calls.has(own) || namedIn(own, names) > 0, rankInput.functions)),
    );
  const suspects = rankFunctions(rankInput, lines);
  return {
    suspects: suspects.slice(0, MAX_SUSPECTS),
    used,
    notes,
    ...(spectrum ? { granularity: spectrum.granularity } : {}),
    ...(base.base && changed.size > 0 ? { changeBase: base.base } : {}),
    durationMs: Date.now() - started,
    ...(cached ? { cached } : {}),
    lines,
  };
}
