import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeJsonAtomic } from '../session/atomic.js';
import { changedCoverage, coveredKeys, lineRanges, type CoverageData } from './coverage/model.js';
import { coverageSupport, withCoverage } from './coverage/measure.js';
import type { CoverageLine } from './events.js';
import { node, type GenContext } from './gen-context.js';
import { caseFor, casesOf, languageOf } from './cases/index.js';
import { applyDrops } from './apply-drops.js';
import { genPaths } from './paths.js';
import { readContextPackage } from './phase-analysis.js';
import type { ContextPackage } from './phase-context.js';
import { updateTask } from './phase-tasks.js';
import { isTestFileProper } from './source-files.js';
import { testChecks } from './test-checks.js';
import { missingImportedName, missingTestData } from './missing-data.js';
import { decideDrop, type TestEvidence } from './decide-drop.js';
import { staticHints } from './static-hints.js';
import { observe, type Observed } from './quality-observe.js';
import type { KeptTest } from './state.js';
import { checkMutants } from './mutation/check-mutants.js';
import { copyVerdict, mutationEvidence, mutationReport } from './mutation/mutation-report.js';
import { mutantReach } from './mutation/mutant-reach.js';

/** What the runner should run to measure one test alone, as precisely as it can select it. */
function selectionOf(runner: string, t: Observed): { files: string[]; names: string[] } {
  // pytest takes a node id (class and parametrize id included) as a path.
  if (runner === 'pytest') return { files: [`${t.file}::${t.path.join('::')}`], names: [] };
  // jest's and vitest's -t match the full name: describe titles and the test's, joined by spaces.
  if (runner === 'jest' || runner === 'vitest') return { files: [t.file], names: [t.path.join(' ')] };
  return { files: [t.file], names: [t.name] };
}

async function readBefore(dir: string): Promise<CoverageData | null> {
  try {
    return JSON.parse(readFileSync(genPaths(dir).coverageBefore, 'utf8')) as CoverageData;
  } catch {
    return null;
  }
}

export function coverageLines(
  pkg: ContextPackage,
  before: CoverageData | null,
  after: CoverageData,
  ctx: GenContext,
): { lines: CoverageLine[]; gaps: string[] } {
  const gaps: string[] = [];
  const lines = pkg.changed_files.map((f) => {
    const b = before ? changedCoverage(before, f.file, f.lines) : null;
    const a = changedCoverage(after, f.file, f.lines);
    const low = (a.lines ?? 100) < ctx.options.coverageLines || (a.branches ?? 100) < ctx.options.coverageBranches;
    const note =
      a.lines === null
        ? `none of its ${f.lines.length} changed line(s) is executable (comments, blank lines, declarations): nothing to cover`
        : undefined;
    if (low)
      gaps.push(
        `${f.file}: ${a.lines ?? '-'}% lines (target ${ctx.options.coverageLines}%), ${a.branches ?? '-'}% branches (target ${ctx.options.coverageBranches}%); uncovered lines ${lineRanges(a.uncovered) || 'none (branches only)'}`,
      );
    return {
      file: f.file,
      linesBefore: b?.lines ?? null,
      linesAfter: a.lines,
      branchesBefore: b?.branches ?? null,
      branchesAfter: a.branches,
      targetLines: ctx.options.coverageLines,
      targetBranches: ctx.options.coverageBranches,
      ...(note ? { note } : {}),
    };
  });
  return { lines, gaps };
}

/**
 * What a test checks that no test kept before it checks (test-checks.ts: each assertion with the body feeding it).
 * Cases sharing one text (a pytest parametrize case, a go subtest named at run time) check their own values: the
 * reported path beyond the declared case tells them apart. Null when the test cannot be found in its file (a
 * computed title, `it.each`): what it checks is unknown.
 */
function ownAssertions(root: string, t: Observed, kept: ReadonlySet<string>): string[] | null {
  const language = languageOf(t.file);
  const path = join(root, t.file);
  if (!language || !existsSync(path)) return null;
  const span = caseFor(casesOf(t.file, readFileSync(path, 'utf8')).cases, t.path);
  if (!span) return null;
  const variant =
    t.path.join(' > ') === span.path.join(' > ') ? '' : t.path.slice(Math.max(0, span.path.length - 1)).join(' > ');
  return testChecks(language, span, variant).filter((c) => !kept.has(c));
}

/** Every check a test makes (none when they cannot be read). */
const checksOf = (root: string, t: Observed): string[] => ownAssertions(root, t, new Set()) ?? [];

/**
 * IMPL-001.5, the quality gate: each new test collected and giving the same result every run (a flip is flaky:
 * dropped; failing every time: kept for the fix loop), checking something no test kept before it checks or
 * covering lines the rest of the suite does not (else a copy, redundant: dropped unless --keep-redundant), and the
 * changed lines reaching the coverage targets (else one more generate round aimed at the uncovered lines).
 */
export async function qualityGate(ctx: GenContext): Promise<void> {
  const { state, options } = ctx;
  const dir = ctx.session.paths.dir;
  const root = ctx.repo.root;
  const round = state.generate_round;
  const pkg = await readContextPackage(dir);
  const files = state.generated_files.filter((f) => isTestFileProper(f) && existsSync(join(root, f)));
  // No test file left (every one rejected): nothing to run, the gate only measures coverage.
  const { tests, uncollected } =
    files.length > 0
      ? await observe(ctx, files, options.stabilityRuns)
      : { tests: new Map<string, Observed>(), uncollected: [] };
  if (ctx.signal.aborted) return;
  // A gate resumed after a stop finds again what it found before the stop: recorded once.
  const reject = (t: { id: string; file: string }, reason: string): void => {
    if (!state.rejected.some((r) => r.gate === 'IMPL-001.5' && r.round === round && r.test === t.id))
      state.rejected.push({ test: t.id, file: t.file, gate: 'IMPL-001.5', reason, round });
  };
  for (const u of uncollected)
    reject(
      { id: u.file, file: u.file },
      `does not collect: the runner could not load it or found no test in it, run alone (${u.error})`,
    );
  for (const file of files.filter(
    (f) => !uncollected.some((u) => u.file === f) && ![...tests.values()].some((t) => t.file === f),
  )) {
    reject(
      { id: file, file },
      'not collected: the runner ran no test from it beside the other new files, though it collects alone',
    );
  }
  const stable: Observed[] = [];
  const drop = new Map<string, Observed[]>();
  const dropLater = (t: Observed): void => void drop.set(t.file, [...(drop.get(t.file) ?? []), t]);
  // L0's static findings on a test are hints: each drop below rests on what the runner said (decide-drop.ts).
  const hintsOf = files.length > 0 ? await staticHints(root, files) : () => [];
  const evidence = (t: Observed, more: Partial<TestEvidence> = {}): TestEvidence => ({
    collected: true,
    statuses: t.statuses,
    runs: options.stabilityRuns,
    ...(t.message ? { message: t.message } : {}),
    hints: hintsOf(t),
    ...more,
  });
  for (const t of tests.values()) {
    const verdict = decideDrop(evidence(t));
    if (!verdict.keep && verdict.kind === 'flaky') {
      reject(t, verdict.reason);
      dropLater(t);
      continue;
    }
    // Failing every run for a file of its own that is not here: no fix of the code makes it pass.
    const missing = t.statuses[0] === 'failed' ? missingTestData(root, t.file, t.message) : null;
    const ghost = t.statuses[0] === 'failed' ? missingImportedName(root, t.file, t.message) : null;
    if (ghost) {
      reject(
        t,
        `export: calls ${ghost}, which it imports but the module does not provide (${(t.message ?? '').split('\n')[0]!.slice(0, 160)}): a hallucinated API`,
      );
      dropLater(t);
    } else if (missing) {
      reject(
        t,
        `needs data that is not here: it reads ${missing}, which does not exist (${(t.message ?? '').split('\n')[0]!.slice(0, 160)}); a test brings or makes the files it reads`,
      );
      dropLater(t);
    } else if (!verdict.keep) {
      reject(t, verdict.reason);
      dropLater(t);
    } else stable.push(t);
  }
  // Phase 2 ran the same tool: when it found the tool missing where the tests run (coverage.py for another
  // Python), every test here would look redundant, so the gate goes on without coverage instead.
  const probed = coverageSupport(ctx.runner, root);
  const support =
    probed.ok && !pkg.coverage.measured && pkg.coverage.reason
      ? { ok: false as const, reason: pkg.coverage.reason }
      : probed;
  const kept: KeptTest[] = [];
  const redundantKept: string[] = [];
  let note: string | undefined;
  // Mutation (src/engine/gen/mutation/): the lines the new tests' coverage runs reach, and the tests whose verdict
  // waits for the mutant runs (covering nothing new, checking nothing a kept test does not: redundant unless they
  // kill a mutant).
  const reachedByNew = new Set<string>();
  const waiting: Observed[] = [];
  let before: CoverageData | null = null;
  if (support.ok) {
    before = await readBefore(dir);
    const sources = new Set(pkg.changed_files.map((f) => f.file));
    const covered = coveredKeys(before ?? {});
    const assertionsKept = new Set<string>();
    const opts = { cwd: root, timeoutMs: options.testTimeoutMs, signal: ctx.signal };
    const coverageOf = async (selection: { files: string[]; names: string[] }): Promise<Set<string>> => {
      const { coverage } = await withCoverage(ctx.runner, root, [], async (runner) =>
        runner.runSubset?.(opts, selection),
      );
      const keys = coveredKeys(coverage);
      for (const k of keys) reachedByNew.add(k);
      return keys;
    };
    // A test with assertions no test before it makes (or failing every run) is kept whatever it covers. A new file
    // whose every test is such a test gets one coverage run with the other such files, whole (selecting tests by
    // name can take in others: go's -run on a subtest, a title shared by two tests); any other test gets a run of
    // its own. A test that could duplicate another always does, to show whether it covers anything new.
    const byAssertions: Observed[] = [];
    const candidates: Observed[] = [];
    const seen = new Set<string>();
    for (const t of stable) {
      const own = ownAssertions(root, t, seen) ?? [];
      for (const a of checksOf(root, t)) seen.add(a);
      // A test L0 doubts gets a coverage run of its own: whether it checks anything is the run's to say.
      if ((own.length > 0 && hintsOf(t).length === 0) || t.statuses[0] === 'failed') byAssertions.push(t);
      else candidates.push(t);
    }
    const wholeFiles = new Set(
      byAssertions
        .map((t) => t.file)
        .filter((f) => [...tests.values()].every((o) => o.file !== f || byAssertions.includes(o))),
    );
    const keepByAssertions = (group: readonly Observed[], mine: Set<string>): void => {
      const inChanged = [...mine].filter(
        (k) => !covered.has(k) && !k.endsWith(':branch') && sources.has(k.slice(0, k.lastIndexOf(':'))),
      ).length;
      // Said of a group only when the group as a whole covers nothing new: each of its tests then does not either
      // (a run that measured nothing at all says nothing).
      const nothingNew = mine.size > 0 && [...mine].every((k) => covered.has(k));
      for (const k of mine) covered.add(k);
      for (const t of group) {
        for (const a of checksOf(root, t)) assertionsKept.add(a);
        const failing = t.statuses[0] === 'failed';
        const note = failing
          ? `fails all ${options.stabilityRuns} runs: kept for the fix loop (it found a bug, or it is wrong itself)`
          : nothingNew
            ? 'adds no coverage; kept for its own assertions'
            : `passes ${options.stabilityRuns} of ${options.stabilityRuns} runs`;
        kept.push({ test: t.id, file: t.file, note, ...(group.length === 1 ? { new_lines: inChanged } : {}) });
      }
    };
    const whole = byAssertions.filter((t) => wholeFiles.has(t.file));
    if (whole.length > 0) {
      node(ctx, 'IMPL-001.5', 'running', `coverage of ${wholeFiles.size} new file(s), whole`);
      keepByAssertions(whole, await coverageOf({ files: [...wholeFiles], names: [] }));
    }
    for (const t of byAssertions.filter((o) => !wholeFiles.has(o.file))) {
      node(ctx, 'IMPL-001.5', 'running', `coverage of "${t.name}"`);
      keepByAssertions([t], await coverageOf(selectionOf(ctx.runner.name, t)));
    }
    // The tests L0 doubts come last: the coverage a doubted test adds is what no undoubted one covered.
    const undoubtedFirst = [...candidates].sort(
      (a, b) => Number(hintsOf(a).length > 0) - Number(hintsOf(b).length > 0),
    );
    for (const t of undoubtedFirst) {
      node(ctx, 'IMPL-001.5', 'running', `coverage of "${t.name}"`);
      const mine = await coverageOf(selectionOf(ctx.runner.name, t));
      const added = [...mine].filter((k) => !covered.has(k));
      const verdict = decideDrop(evidence(t, { addedCoverage: added.length > 0 }));
      // Doubted by L0 and adding no coverage: whether it checks anything is for the mutant runs to say, below.
      if (!verdict.keep && verdict.kind === 'checks-nothing') {
        waiting.push(t);
        continue;
      }
      if (!verdict.keep) {
        reject(t, verdict.reason);
        dropLater(t);
        continue;
      }
      // No new line or branch, yet its own checks: a test pinning other values of the same code is no duplicate.
      const own = added.length === 0 ? ownAssertions(root, t, assertionsKept) : [];
      if (added.length === 0 && own && own.length > 0) {
        for (const a of own) assertionsKept.add(a);
        kept.push({
          test: t.id,
          file: t.file,
          note: `adds no coverage; kept for its own assertions (${own.length} no kept test makes)`,
          new_lines: 0,
        });
        continue;
      }
      // Not found in its file (a computed title, `it.each`): it may check other values, so it is no known copy.
      if (added.length === 0 && own === null) {
        kept.push({
          test: t.id,
          file: t.file,
          note: 'adds no coverage; kept: what it checks cannot be read from its file (a computed title, a table of cases), so it is no known copy',
          new_lines: 0,
        });
        continue;
      }
      if (added.length === 0) {
        if (options.keepRedundant) {
          redundantKept.push(t.id);
          kept.push({
            test: t.id,
            file: t.file,
            note: 'redundant (kept by --keep-redundant): covers no line or branch the rest of the suite does not',
            new_lines: 0,
          });
        } else waiting.push(t);
        continue;
      }
      for (const k of mine) covered.add(k);
      for (const a of checksOf(root, t)) assertionsKept.add(a);
      const inChanged = added.filter(
        (k) => !k.endsWith(':branch') && sources.has(k.slice(0, k.lastIndexOf(':'))),
      ).length;
      kept.push({
        test: t.id,
        file: t.file,
        note: `passes ${options.stabilityRuns} of ${options.stabilityRuns} runs`,
        new_lines: inChanged,
      });
    }
  } else {
    note = `coverage not measured: ${support.reason}; the uniqueness and coverage checks did not run`;
    for (const t of stable)
      kept.push({
        test: t.id,
        file: t.file,
        note:
          t.statuses[0] === 'failed'
            ? 'fails every run: kept for the fix loop'
            : `passes ${options.stabilityRuns} of ${options.stabilityRuns} runs`,
      });
    ctx.emit({ type: 'gen-coverage', files: [], measured: false, reason: support.reason });
  }
  // Mutants of the changed lines, run against the new tests passing every run: a test covering nothing new is kept
  // when it kills one (it checks something the change can break), else dropped citing the runs.
  const mutation = await checkMutants(
    ctx,
    pkg,
    stable.filter((t) => t.statuses[0] === 'passed'),
    mutantReach(reachedByNew, before),
  );
  if (ctx.signal.aborted) return;
  for (const t of waiting) {
    if (hintsOf(t).length > 0) {
      // L0 doubted it and it adds no coverage: kept when it kills a mutant, else it checks nothing, the runs say so.
      const ran = mutationEvidence(mutation.outcomes, t.id);
      const runs = ran.text.startsWith('no mutant') ? ran.text : `it ${ran.text}`;
      const checked = decideDrop(
        evidence(t, { addedCoverage: false, mutation: { killedMutants: ran.killed, addedCoverage: false } }),
      );
      if (checked.keep) kept.push({ test: t.id, file: t.file, note: `${checked.note}: ${runs}`, new_lines: 0 });
      else {
        reject(t, `${checked.reason}; ${runs}`);
        dropLater(t);
      }
      continue;
    }
    const verdict = copyVerdict(mutation.outcomes, t.id, new Set(kept.map((k) => k.test)));
    if (verdict.keep) {
      kept.push({ test: t.id, file: t.file, note: `adds no coverage; kept: it ${verdict.text}`, new_lines: 0 });
      continue;
    }
    reject(
      t,
      `redundant: covers no line or branch the rest of the suite (and the tests kept before it) does not, and ${verdict.text}`,
    );
    dropLater(t);
  }
  state.kept = kept;
  state.redundant_kept = redundantKept;
  if (note) state.coverage_note = note;
  // Saved before the dropped tests leave their files: a stop in between keeps why they were dropped.
  await ctx.save();
  await applyDrops(ctx, files, drop, tests);
  await ctx.save();
  const mutants = mutationReport(
    mutation.made,
    mutation.outcomes,
    new Set(state.kept.map((k) => k.test)),
    mutation.note,
  );
  ctx.emit({ type: 'gen-mutation', modules: mutants.modules, ...(mutants.note ? { note: mutants.note } : {}) });
  let gaps: string[] = [];
  if (support.ok) {
    node(ctx, 'IMPL-001.5', 'running', 'coverage of the changed lines with the kept tests (full suite)');
    const { coverage } = await withCoverage(
      ctx.runner,
      root,
      pkg.changed_files.map((f) => f.file),
      (runner) => runner.run({ cwd: root, scope: 'full', timeoutMs: options.testTimeoutMs, signal: ctx.signal }),
    );
    const measured = coverageLines(pkg, await readBefore(dir), coverage, ctx);
    gaps = measured.gaps;
    ctx.emit({ type: 'gen-coverage', files: measured.lines, measured: true });
    await writeJsonAtomic(genPaths(dir).qualityReport, {
      round,
      kept: state.kept,
      rejected: state.rejected.filter((r) => r.gate === 'IMPL-001.5'),
      coverage: measured.lines,
      gaps,
      mutation: mutants,
    });
  } else
    await writeJsonAtomic(genPaths(dir).qualityReport, {
      round,
      kept: state.kept,
      rejected: state.rejected.filter((r) => r.gate === 'IMPL-001.5'),
      coverage: null,
      note,
      mutation: mutants,
    });
  const dropped = state.rejected.filter((r) => r.gate === 'IMPL-001.5' && r.round === round);
  await updateTask(dir, 'IMPL-001.5', (t) => {
    t.status = 'completed';
    Object.assign(t.context, {
      round,
      kept: state.kept.map((k) => `${k.test}: ${k.note}`),
      rejected: dropped.map((r) => `${r.test}: ${r.reason}`),
      coverage_gaps: gaps,
      ...(note ? { coverage: note } : {}),
    });
  });
  const findings = dropped.map((r) => `${r.test}: ${r.reason}`);
  // A file that broke collection goes back to the generator with the runner's error, as uncovered lines do.
  if ((gaps.length > 0 || uncollected.length > 0) && state.coverage_rounds < options.maxCoverageRounds) {
    const why = gaps.length ? 'below the coverage targets' : 'a file did not collect';
    node(
      ctx,
      'IMPL-001.5',
      'failed',
      `${state.kept.length} kept, ${dropped.length} dropped; ${why}: one more generate round`,
      { round, findings: [...findings, ...gaps] },
    );
    // The round's prompt says why tests were rejected, not only which lines are left: the generator can avoid it.
    Object.assign(state, {
      coverage_rounds: state.coverage_rounds + 1,
      feedback: [...gaps, ...findings.map((f) => `rejected: ${f}`)],
      feedback_kind: 'coverage',
      step: 'generate',
      l0_rounds: 0,
    });
  } else {
    const detail = `${state.kept.length} kept, ${dropped.length} dropped${gaps.length ? `; still below target: ${gaps.join('; ')}` : support.ok ? '; coverage targets met' : `; ${note}`}`;
    node(ctx, 'IMPL-001.5', 'done', detail, { round, findings });
    state.step = 'commit';
  }
  await ctx.save();
}
