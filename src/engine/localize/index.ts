import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { TestRunner } from '../runners/runner.js';
import type { Failure } from '../types.js';
import { cacheSpectrum, readCachedSpectrum, spectrumKey } from './cache.js';
import { changeBase, changedLinesSince, type ChangedLines } from './change.js';
import { runSpectrum, type SpectrumRun } from './coverage-run.js';
import { functionsOf, type FunctionSpan } from './functions.js';
import { ochiai } from './ochiai.js';
import { rankFunctions, scoreLines, type ScoredLine } from './rank.js';
import { reachOf } from './reached.js';
import { sourceFrames } from './stack-frames.js';
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
  timeoutMs: number;
  signal?: AbortSignal;
  /** Skip the coverage run (stack frames and the change only). */
  noCoverage?: boolean;
  /** The base of the change evidence, when the caller knows it better than the green-commit record. */
  changeBase?: string | null;
  /** The user's HEAD when the session's snapshot holds their uncommitted changes (a loop in its own worktree). */
  startedFrom?: string;
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
  const { root, failures } = input;
  const used: EvidenceKind[] = [];
  const notes: string[] = [];
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
      const testFiles = [...new Set(failures.flatMap((f) => (f.file ? [f.file] : [])))];
      const outcome = await runSpectrum({
        root,
        runner: input.runner,
        failures,
        neighbours: (await reachOf(root, testFiles).catch(() => ({ neighbours: [] }))).neighbours,
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

  const spectra = spectrum ? { ...ochiai(spectrum.units), granularity: spectrum.granularity } : null;
  const rankInput = {
    spectrum: spectra,
    frames,
    changed,
    changeBase: base.base ?? undefined,
    functions: new Map<string, FunctionSpan[]>(),
  };
  const lines = scoreLines(rankInput);
  for (const file of new Set(lines.map((l) => l.file))) {
    const text = await readFile(join(root, file), 'utf8').catch(() => null);
    rankInput.functions.set(file, text === null ? [] : await functionsOf(file, text).catch(() => []));
  }
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
