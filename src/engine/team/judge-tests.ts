import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { coveredKeys } from '../gen/coverage/model.js';
import { widestFirst } from '../gen/widest-first.js';
import { coverageSupport, withCoverage } from '../gen/coverage/measure.js';
import { pythonOf } from '../gen/coverage/python.js';
import { decideDrop, type TestEvidence } from '../gen/decide-drop.js';
import { dropTests } from '../gen/drop-tests.js';
import { missingImportedName, missingTestData } from '../gen/missing-data.js';
import { MAX_MUTANT_RUNS } from '../gen/mutation/check-mutants.js';
import { makeMutants, mutationLanguage } from '../gen/mutation/make-mutants.js';
import { runMutants, type MutatedModule } from '../gen/mutation/run-mutants.js';
import { observe, type ObserveContext, type Observed } from '../gen/quality-observe.js';
import { isTestFileProper } from '../gen/source-files.js';
import { staticHints } from '../gen/static-hints.js';
import type { TeamContext } from './team-context.js';
import type { TeamTask } from './tasks-csv.js';
import { discardFiles } from './worktrees.js';

/** Runs of each new test in a row that must agree (gen's stability runs, TestGen-LLM's 5). */
export const STABILITY_RUNS = 5;

const firstLine = (s: string | undefined): string => (s ?? '').split('\n')[0]!.slice(0, 160);
/** A drop's reason up to its first aside: the task's findings hold every drop; the full words go on its line. */
const short = (reason: string): string => reason.split(/ \(|; /)[0]!.slice(0, 120);

/** A drop and the runner result it cites. */
interface Drop {
  test: Observed;
  reason: string;
}

/**
 * gen's quality judges on a generator task's files before they are committed, each drop citing a runner result:
 * a file the runner cannot collect, a test flaky over the stability runs, skipped in every run, failing every run
 * on a placeholder, a hallucinated name or missing data, or one L0 doubts (no assertion, a constant one) that kills
 * no mutant of the changed lines and runs no changed line the task's other files do not. A static finding alone
 * drops nothing. Returns what went, as `<file>: "<test>" (<reason>)` or `<file> (<reason>)`.
 */
export async function judgeTests(
  ctx: TeamContext,
  task: TeamTask,
  cwd: string,
  written: Set<string>,
  journal: string,
): Promise<string[]> {
  if (![...written].some(isTestFileProper)) return [];
  const say = (detail: string): void =>
    ctx.emit({
      type: 'team-task',
      id: task.id,
      role: task.role,
      layer: task.layer,
      wave: Number(task.wave),
      status: 'running',
      detail: `quality: ${detail}`,
    });
  const repo = { root: cwd, restoreFiles: (f: readonly string[]) => discardFiles(cwd, f) };
  const seen: ObserveContext = {
    repo,
    runner: ctx.runner,
    signal: ctx.signal,
    options: { testTimeoutMs: ctx.options.testTimeoutMs },
    emit: (e) => {
      if (e.type === 'gen' && e.detail) say(e.detail);
      else if (e.type === 'output') ctx.emit(e);
    },
  };
  const out: string[] = [];
  for (let pass = 1; pass <= 2; pass++) {
    const active = [...written].filter(isTestFileProper).sort();
    if (active.length === 0) break;
    // L0's hints are read before the runs, which take a file that does not collect out of the tree.
    const hintsOf = await staticHints(cwd, active);
    const { tests, uncollected } = await observe(seen, active, STABILITY_RUNS);
    for (const u of uncollected) {
      written.delete(u.file);
      // The runner's words are the reason; L0's findings in the file say what kind of test would have stood there
      // (a placeholder whose unused imports the project's compiler refuses).
      const hints = hintsOf({ file: u.file, path: [] });
      const hinted =
        hints.length > 0 ? `; L0 on the file: ${[...new Set(hints.map((h) => h.message))].join('; ')}` : '';
      say(`dropped ${u.file}: does not collect: ${u.error}${hinted}`);
      out.push(`${u.file} (does not collect: ${short(u.error)}${hinted})`);
    }
    const { drops, doubted } = verdicts(cwd, [...tests.values()], hintsOf);
    // A run cut short (a go test that panics ends its package's test binary) leaves the tests after it unreported:
    // the drops that rest on every run go first, and the files run again without them.
    const complete = (t: Observed): boolean => t.statuses.length === STABILITY_RUNS;
    const reported = new Set([...tests.values()].map((t) => t.file));
    const cut = [...tests.values()].some((t) => !complete(t)) || active.some((f) => written.has(f) && !reported.has(f));
    const sure = drops.filter((d) => complete(d.test));
    if (pass === 1 && cut && sure.length > 0) {
      for (const d of sure) say(`dropped ${d.test.id}: ${d.reason}`);
      out.push(...(await applyDrops(repo, sure, written, [...tests.values()])));
      continue;
    }
    const left = [...tests.values()].filter((t) => !drops.some((d) => d.test === t));
    drops.push(
      ...(await checksNothing(ctx, cwd, { doubted, all: left, written: [...written], hintsOf }, journal, say)),
    );
    for (const d of drops) say(`dropped ${d.test.id}: ${d.reason}`);
    out.push(...(await applyDrops(repo, drops, written, [...tests.values()])));
    break;
  }
  return out;
}

/** The drops each test's runs call for, and the passing tests L0 doubts (for the mutants to judge). */
function verdicts(
  cwd: string,
  tests: Observed[],
  hintsOf: (t: Observed) => TestEvidence['hints'],
): { drops: Drop[]; doubted: Observed[] } {
  const drops: Drop[] = [];
  const doubted: Observed[] = [];
  for (const t of tests) {
    const hints = hintsOf(t) ?? [];
    const verdict = decideDrop({
      collected: true,
      statuses: t.statuses,
      runs: STABILITY_RUNS,
      ...(t.message ? { message: t.message } : {}),
      hints,
    });
    const failing = t.statuses.every((s) => s === 'failed');
    const ghost = failing ? missingImportedName(cwd, t.file, t.message) : null;
    const missing = failing ? missingTestData(cwd, t.file, t.message) : null;
    if (!verdict.keep) drops.push({ test: t, reason: verdict.reason });
    else if (ghost)
      drops.push({
        test: t,
        reason: `export: calls ${ghost}, which the module does not provide (${firstLine(t.message)})`,
      });
    else if (missing) drops.push({ test: t, reason: `needs data that is not here: it reads ${missing}` });
    else if (!failing && hints.length > 0) doubted.push(t);
  }
  return { drops, doubted };
}

/**
 * The tests L0 doubts, passing every run: run against mutants of the changed lines; one that kills none and whose
 * file runs no changed line the suite, the task's other new files and a wider such file do not checks nothing the
 * change can break. A doubted test
 * sharing its file with tests L0 does not doubt is kept (its own coverage cannot be told apart).
 */
async function checksNothing(
  ctx: TeamContext,
  cwd: string,
  judged: {
    doubted: Observed[];
    all: Observed[];
    written: string[];
    hintsOf: (t: Observed) => TestEvidence['hints'];
  },
  journal: string,
  say: (detail: string) => void,
): Promise<Drop[]> {
  const { doubted, all, hintsOf } = judged;
  if (doubted.length === 0) return [];
  const modules: MutatedModule[] = [];
  const python = pythonOf(ctx.runner.describe().full);
  for (const f of ctx.changed.filter((c) => mutationLanguage(c.file))) {
    const mutants = await makeMutants(cwd, f, python).catch(() => []);
    if (mutants.length > 0) modules.push({ file: f.file, mutants, existing: [] });
  }
  const outcomes = modules.length
    ? await runMutants({
        runner: ctx.runner,
        root: cwd,
        signal: ctx.signal,
        timeoutMs: ctx.options.testTimeoutMs,
        newTests: doubted.map((t) => ({ id: t.id, file: t.file })),
        modules,
        passingBefore: null,
        maxRuns: MAX_MUTANT_RUNS,
        journal,
        onRun: (m, i, n) => say(`mutant ${i + 1} of ${n}: ${m.file}:${m.line} ${m.description}`),
      })
    : [];
  const ran = outcomes.filter((o) => o.status === 'killed' || o.status === 'survived').length;
  // Every test here is doubted: a failure that is only the code throwing is no check of its own (as in gen).
  const killers = new Set(outcomes.flatMap((o) => o.killedBy.filter((t) => !o.crashedBy?.includes(t))));
  const suspects = doubted.filter((t) => !killers.has(t.id));
  // A file is judged whole: every test in it is a doubted one killing no mutant.
  const suspectFiles = [...new Set(suspects.map((t) => t.file))].filter((f) =>
    all.filter((t) => t.file === f).every((t) => suspects.includes(t)),
  );
  const verdictOf = (t: Observed, mutation?: TestEvidence['mutation']) =>
    decideDrop({
      collected: true,
      statuses: t.statuses,
      runs: STABILITY_RUNS,
      hints: hintsOf(t),
      addedCoverage: false,
      ...(mutation ? { mutation } : {}),
    });
  if (suspectFiles.length === 0) return [];
  // Without a coverage tool (coverage.py missing for the Python that runs the tests), the mutant runs are all the
  // dynamic evidence: a doubted test that killed none of them checks nothing, as in gen.
  const unmeasured = (files: readonly string[]): Drop[] =>
    ran === 0
      ? []
      : suspects
          .filter((t) => files.includes(t.file))
          .flatMap((t) => {
            const verdict = verdictOf(t, { killedMutants: 0, addedCoverage: null, mutants: ran });
            return verdict.keep ? [] : [{ test: t, reason: verdict.reason }];
          });
  const support = coverageSupport(ctx.runner, cwd);
  if (!support.ok) return unmeasured(suspectFiles);
  const sources = ctx.changed.map((c) => c.file);
  const changedKeys = new Set(ctx.changed.flatMap((c) => c.lines.map((l) => `${c.file}:${l}`)));
  const coverageOf = async (files: string[]): Promise<Set<string> | null> => {
    if (files.length === 0) return new Set();
    const opts = { cwd, timeoutMs: ctx.options.testTimeoutMs, signal: ctx.signal };
    const m = await withCoverage(ctx.runner, cwd, sources, async (r) => r.runSubset?.(opts, { files, names: [] }));
    if (!m.result || ('missing' in m && m.missing)) return null;
    return new Set([...coveredKeys(m.coverage)].filter((k) => changedKeys.has(k)));
  };
  // What the suite covers with the task's other new files, the suspects and the tests going anyway set aside.
  const others = new Set(all.map((t) => t.file).filter((f) => !suspectFiles.includes(f)));
  say(`coverage of the changed lines by the suite with ${others.size} other new file(s)`);
  const base = await setAside(
    cwd,
    judged.written.filter((f) => !others.has(f)),
    async () => {
      const opts = { cwd, timeoutMs: ctx.options.testTimeoutMs, signal: ctx.signal, scope: 'full' as const };
      const m = await withCoverage(ctx.runner, cwd, sources, (r) => r.run(opts));
      return !m.result || ('missing' in m && m.missing) ? null : coveredKeys(m.coverage);
    },
  );
  if (!base) return unmeasured(suspectFiles);
  const measured: { t: string; mine: Set<string> }[] = [];
  const notMeasured: string[] = [];
  for (const file of suspectFiles) {
    say(`coverage of the changed lines by ${file}`);
    const mine = await coverageOf([file]);
    if (mine) measured.push({ t: file, mine });
    else notMeasured.push(file);
  }
  // Against each other widest first, as in gen: a file running only lines a wider suspect file runs adds nothing.
  const drops: Drop[] = unmeasured(notMeasured);
  for (const { t: file, addedCoverage } of widestFirst(measured, base)) {
    if (addedCoverage) continue;
    for (const t of suspects.filter((s) => s.file === file)) {
      // Killing no mutant and adding no coverage (or, where no mutant could be made, adding no coverage).
      const verdict = verdictOf(t, ran > 0 ? { killedMutants: 0, addedCoverage: false, mutants: ran } : undefined);
      if (!verdict.keep) drops.push({ test: t, reason: verdict.reason });
    }
  }
  return drops;
}

/** Runs `run` with `files` out of the tree (copied away and put back after, whatever happens). */
async function setAside<T>(cwd: string, files: readonly string[], run: () => Promise<T>): Promise<T> {
  const away = mkdtempSync(join(tmpdir(), 'fixcycle-aside-'));
  const moved: string[] = [];
  try {
    for (const [i, f] of files.entries()) {
      if (!existsSync(join(cwd, f))) continue;
      copyFileSync(join(cwd, f), join(away, String(i)));
      rmSync(join(cwd, f));
      moved.push(f);
    }
    return await run();
  } finally {
    for (const f of moved) copyFileSync(join(away, String(files.indexOf(f))), join(cwd, f));
    rmSync(away, { recursive: true, force: true });
  }
}

/** Takes the dropped tests out of their files; a file whose every reported test is dropped goes whole. */
async function applyDrops(
  repo: { root: string; restoreFiles: (f: readonly string[]) => Promise<void> },
  drops: Drop[],
  written: Set<string>,
  reported: Observed[],
): Promise<string[]> {
  const out: string[] = [];
  const byFile = new Map<string, Drop[]>();
  for (const d of drops) byFile.set(d.test.file, [...(byFile.get(d.test.file) ?? []), d]);
  for (const [file, mine] of byFile) {
    const whole = reported.filter((t) => t.file === file).every((t) => mine.some((d) => d.test === t));
    const done = await dropTests(
      repo,
      file,
      mine.map((d) => d.test.path),
      !whole,
    );
    for (const d of mine) out.push(`${file}: "${d.test.name}" (${short(d.reason)})`);
    if (done.fileGone) written.delete(file);
  }
  return out;
}
