import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';
import { writeJsonAtomic } from '../session/atomic.js';
import type { TestCase } from '../types.js';
import { changedCoverage, coveredKeys, lineRanges, type CoverageData } from './coverage/model.js';
import { coverageSupport, withCoverage } from './coverage/measure.js';
import type { CoverageLine } from './events.js';
import { node, type GenContext } from './gen-context.js';
import { findTestCases, removeTestCases } from './l0/test-cases.js';
import { genPaths } from './paths.js';
import { readContextPackage } from './phase-analysis.js';
import type { ContextPackage } from './phase-context.js';
import { updateTask } from './phase-tasks.js';
import { isTestFileProper } from './source-files.js';
import type { KeptTest } from './state.js';

interface Observed {
  id: string;
  name: string;
  file: string;
  statuses: string[];
}

/** Which new file a test belongs to: its reported file, else the one file that declares a test of its name. */
function fileOf(root: string, t: TestCase, files: readonly string[], declared: ReadonlyMap<string, string[]>): string | null {
  const f = t.file ? (isAbsolute(t.file) ? relative(root, t.file) : t.file).replace(/^\.\//, '') : null;
  if (f && files.includes(f)) return f;
  const byId = files.find((candidate) => t.id.startsWith(`${candidate}::`));
  if (byId) return byId;
  const owners = declared.get(t.name) ?? [];
  return owners.length === 1 ? owners[0]! : null;
}

/** Test names each new file declares (runners such as node:test report no file for a passing test). */
function declaredNames(root: string, files: readonly string[]): Map<string, string[]> {
  const names = new Map<string, string[]>();
  for (const file of files) {
    const text = existsSync(join(root, file)) ? readFileSync(join(root, file), 'utf8') : '';
    for (const c of findTestCases(text)) names.set(c.name, [...new Set([...(names.get(c.name) ?? []), file])]);
  }
  return names;
}

/** Runs the new test files `runs` times and collects each test's results, in order. */
async function observe(ctx: GenContext, files: string[], runs: number): Promise<{ tests: Map<string, Observed>; errors: string[] }> {
  const root = ctx.repo.root;
  const tests = new Map<string, Observed>();
  const errors: string[] = [];
  const declared = declaredNames(root, files);
  for (let i = 1; i <= runs; i++) {
    node(ctx, 'IMPL-001.5', 'running', `stability: run ${i} of ${runs} of ${files.length} new test file(s)`);
    const opts = { cwd: root, timeoutMs: ctx.options.testTimeoutMs, signal: ctx.signal, onLines: (lines: string[]) => ctx.emit({ type: 'output', lines }) };
    const run = (await ctx.runner.runSubset?.(opts, { files, names: [] })) ?? (await ctx.runner.run({ ...opts, scope: 'full' }));
    if (i === 1) errors.push(...run.result.errors.map((e) => `${e.file ?? ''} ${e.message.split('\n')[0]}`.trim()));
    for (const t of run.result.tests) {
      const file = fileOf(root, t, files, declared);
      if (!file) continue;
      // Keyed by file and name: some reporters give a failing test a longer id than a passing one.
      const key = `${file}::${t.name}`;
      const seen = tests.get(key) ?? { id: key, name: t.name, file, statuses: [] };
      seen.statuses.push(t.status);
      tests.set(key, seen);
    }
    if (ctx.signal.aborted) break;
  }
  return { tests, errors };
}

function dropCases(root: string, file: string, names: string[]): void {
  const path = join(root, file);
  if (!existsSync(path) || names.length === 0) return;
  writeFileSync(path, removeTestCases(readFileSync(path, 'utf8'), new Set(names)).text);
}

async function readBefore(dir: string): Promise<CoverageData | null> {
  try {
    return JSON.parse(readFileSync(genPaths(dir).coverageBefore, 'utf8')) as CoverageData;
  } catch {
    return null;
  }
}

function coverageLines(pkg: ContextPackage, before: CoverageData | null, after: CoverageData, ctx: GenContext): { lines: CoverageLine[]; gaps: string[] } {
  const gaps: string[] = [];
  const lines = pkg.changed_files.map((f) => {
    const b = before ? changedCoverage(before, f.file, f.lines) : null;
    const a = changedCoverage(after, f.file, f.lines);
    const low = (a.lines ?? 100) < ctx.options.coverageLines || (a.branches ?? 100) < ctx.options.coverageBranches;
    if (low) gaps.push(`${f.file}: ${a.lines ?? '-'}% lines (target ${ctx.options.coverageLines}%), ${a.branches ?? '-'}% branches (target ${ctx.options.coverageBranches}%); uncovered lines ${lineRanges(a.uncovered) || 'none (branches only)'}`);
    return { file: f.file, linesBefore: b?.lines ?? null, linesAfter: a.lines, branchesBefore: b?.branches ?? null, branchesAfter: a.branches, targetLines: ctx.options.coverageLines, targetBranches: ctx.options.coverageBranches };
  });
  return { lines, gaps };
}

/**
 * IMPL-001.5, the quality gate: each new test collected and giving the same result every run (a flip is flaky:
 * dropped; failing every time: kept for the fix loop), covering lines the rest of the suite does not (else
 * redundant: dropped unless --keep-redundant), and the changed lines reaching the coverage targets (else one
 * more generate round aimed at the uncovered lines).
 */
export async function qualityGate(ctx: GenContext): Promise<void> {
  const { state, options } = ctx;
  const dir = ctx.session.paths.dir;
  const root = ctx.repo.root;
  const round = state.generate_round;
  const pkg = await readContextPackage(dir);
  const files = state.generated_files.filter((f) => isTestFileProper(f) && existsSync(join(root, f)));
  // No test file left (every one rejected): nothing to run, the gate only measures coverage.
  const { tests, errors } = files.length > 0 ? await observe(ctx, files, options.stabilityRuns) : { tests: new Map<string, Observed>(), errors: [] };
  if (ctx.signal.aborted) return;
  // A gate resumed after a stop finds again what it found before the stop: recorded once.
  const reject = (t: { id: string; file: string }, reason: string): void => {
    if (!state.rejected.some((r) => r.gate === 'IMPL-001.5' && r.round === round && r.test === t.id)) state.rejected.push({ test: t.id, file: t.file, gate: 'IMPL-001.5', reason, round });
  };
  for (const file of files.filter((f) => ![...tests.values()].some((t) => t.file === f))) {
    reject({ id: file, file }, `not collected: the runner ran no test from it${errors.length ? ` (${errors[0]})` : ''}`);
  }
  const stable: Observed[] = [];
  const drop = new Map<string, string[]>();
  for (const t of tests.values()) {
    const passes = t.statuses.filter((s) => s === 'passed').length;
    if (new Set(t.statuses).size > 1 || t.statuses.length < options.stabilityRuns) {
      reject(t, `flaky: passed ${passes} of ${t.statuses.length} runs (the same result ${options.stabilityRuns} runs in a row is required)`);
      drop.set(t.file, [...(drop.get(t.file) ?? []), t.name]);
    } else stable.push(t);
  }
  // Phase 2 ran the same tool: when it found the tool missing where the tests run (coverage.py for another
  // Python), every test here would look redundant, so the gate goes on without coverage instead.
  const probed = coverageSupport(ctx.runner, root);
  const support = probed.ok && !pkg.coverage.measured && pkg.coverage.reason ? { ok: false as const, reason: pkg.coverage.reason } : probed;
  const kept: KeptTest[] = [];
  const redundantKept: string[] = [];
  let note: string | undefined;
  if (support.ok) {
    const before = await readBefore(dir);
    const sources = new Set(pkg.changed_files.map((f) => f.file));
    const covered = coveredKeys(before ?? {});
    for (const t of stable) {
      node(ctx, 'IMPL-001.5', 'running', `coverage of "${t.name}"`);
      const opts = { cwd: root, timeoutMs: options.testTimeoutMs, signal: ctx.signal };
      const { coverage } = await withCoverage(ctx.runner, root, [], async (runner) => runner.runSubset?.(opts, { files: [t.file], names: [t.name] }));
      const mine = coveredKeys(coverage);
      const added = [...mine].filter((k) => !covered.has(k));
      const failing = t.statuses[0] === 'failed';
      if (added.length === 0 && !failing) {
        if (options.keepRedundant) {
          redundantKept.push(t.id);
          kept.push({ test: t.id, file: t.file, note: 'redundant (kept by --keep-redundant): covers no line or branch the rest of the suite does not', new_lines: 0 });
        } else {
          reject(t, 'redundant: covers no line or branch the rest of the suite (and the tests kept before it) does not');
          drop.set(t.file, [...(drop.get(t.file) ?? []), t.name]);
        }
        continue;
      }
      for (const k of mine) covered.add(k);
      const inChanged = added.filter((k) => !k.endsWith(':branch') && sources.has(k.slice(0, k.lastIndexOf(':')))).length;
      kept.push({ test: t.id, file: t.file, note: failing ? `fails all ${options.stabilityRuns} runs: kept for the fix loop (it found a bug, or it is wrong itself)` : `passes ${options.stabilityRuns} of ${options.stabilityRuns} runs`, new_lines: inChanged });
    }
  } else {
    note = `coverage not measured: ${support.reason}; the uniqueness and coverage checks did not run`;
    for (const t of stable) kept.push({ test: t.id, file: t.file, note: t.statuses[0] === 'failed' ? 'fails every run: kept for the fix loop' : `passes ${options.stabilityRuns} of ${options.stabilityRuns} runs` });
    ctx.emit({ type: 'gen-coverage', files: [], measured: false, reason: support.reason });
  }
  state.kept = kept;
  state.redundant_kept = redundantKept;
  if (note) state.coverage_note = note;
  // Saved before the dropped tests leave their files: a stop in between keeps why they were dropped.
  await ctx.save();
  for (const [file, names] of drop) dropCases(root, file, names);
  let gaps: string[] = [];
  if (support.ok) {
    node(ctx, 'IMPL-001.5', 'running', 'coverage of the changed lines with the kept tests (full suite)');
    const { coverage } = await withCoverage(ctx.runner, root, pkg.changed_files.map((f) => f.file), (runner) => runner.run({ cwd: root, scope: 'full', timeoutMs: options.testTimeoutMs, signal: ctx.signal }));
    const measured = coverageLines(pkg, await readBefore(dir), coverage, ctx);
    gaps = measured.gaps;
    ctx.emit({ type: 'gen-coverage', files: measured.lines, measured: true });
    await writeJsonAtomic(genPaths(dir).qualityReport, { round, kept, rejected: state.rejected.filter((r) => r.gate === 'IMPL-001.5'), coverage: measured.lines, gaps });
  } else await writeJsonAtomic(genPaths(dir).qualityReport, { round, kept, rejected: state.rejected.filter((r) => r.gate === 'IMPL-001.5'), coverage: null, note });
  const dropped = state.rejected.filter((r) => r.gate === 'IMPL-001.5' && r.round === round);
  await updateTask(dir, 'IMPL-001.5', (t) => {
    t.status = 'completed';
    Object.assign(t.context, { round, kept: kept.map((k) => `${k.test}: ${k.note}`), rejected: dropped.map((r) => `${r.test}: ${r.reason}`), coverage_gaps: gaps, ...(note ? { coverage: note } : {}) });
  });
  const findings = dropped.map((r) => `${r.test}: ${r.reason}`);
  if (gaps.length > 0 && state.coverage_rounds < options.maxCoverageRounds) {
    node(ctx, 'IMPL-001.5', 'failed', `${kept.length} kept, ${dropped.length} dropped; below the coverage targets: one more generate round`, { round, findings: [...findings, ...gaps] });
    Object.assign(state, { coverage_rounds: state.coverage_rounds + 1, feedback: gaps, feedback_kind: 'coverage', step: 'generate', l0_rounds: 0 });
  } else {
    const detail = `${kept.length} kept, ${dropped.length} dropped${gaps.length ? `; still below target: ${gaps.join('; ')}` : support.ok ? '; coverage targets met' : `; ${note}`}`;
    node(ctx, 'IMPL-001.5', 'done', detail, { round, findings });
    state.step = 'commit';
  }
  await ctx.save();
}
