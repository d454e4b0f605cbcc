import { existsSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { EXIT } from '../loop/exit-codes.js';
import type { TestCase } from '../types.js';
import { runFile, type AskRunner } from './collect.js';
import { absentExport } from './absent-export.js';
import { dropTests } from './drop-tests.js';
import { node, type GenContext } from './gen-context.js';
import { missingImportedName, missingTestData } from './missing-data.js';
import { ownErrorPredicate, ownFailurePredicate } from './own-failures.js';
import { readContextPackage } from './phase-analysis.js';
import { updateTask } from './phase-tasks.js';
import { identityOf } from './quality-observe.js';
import { isTestFileProper } from './source-files.js';

const firstLine = (text: string | undefined): string => (text ?? '').split('\n')[0]!.trim().slice(0, 160);
const failing = (t: TestCase): boolean => t.status === 'failed';

/** Why a kept test still fails, in the runner's words, with what no fix of the code can change named first. */
async function whyStillFailing(root: string, file: string, t: TestCase, path: readonly string[]): Promise<string> {
  const ghost = missingImportedName(root, file, t.message);
  const missing = missingTestData(root, file, t.message);
  const absent = ghost || missing ? null : await absentExport(root, file, path);
  const words = firstLine(t.message) || t.status;
  const cause = ghost
    ? `export: it calls ${ghost}, which it imports but the module does not provide; `
    : absent
      ? `export: it uses ${absent.name} from ${absent.from}, which the module does not provide when node loads it; `
      : missing
        ? `it reads ${missing}, which does not exist; `
        : '';
  return `${cause}still failing after the fix loop: run alone once the loop ended, it failed (${words}); dropped, a committed test never fails`;
}

/** The file as it was before gen's commit (a file gen extended), or gone (a file gen made). */
async function putBack(ctx: GenContext, file: string): Promise<void> {
  const path = join(ctx.repo.root, file);
  const before = ctx.state.gen_commit
    ? await execa('git', ['show', `${ctx.state.gen_commit}^:${file}`], {
        cwd: ctx.repo.root,
        reject: false,
        stripFinalNewline: false,
      })
    : null;
  if (before?.exitCode === 0) writeFileSync(path, String(before.stdout));
  else if (existsSync(path)) unlinkSync(path);
}

/**
 * One committed file after the fix loop: its kept tests that still fail, run alone, leave it, and it runs again.
 * Returns the tests dropped and whether the whole file went (it no longer loads, or what is left still fails).
 */
async function settleFile(
  ctx: GenContext,
  ask: AskRunner,
  file: string,
  files: readonly string[],
): Promise<{ dropped: number; gone?: string }> {
  const { state } = ctx;
  const root = ctx.repo.root;
  const keptIds = new Set(state.kept.filter((k) => k.file === file).map((k) => k.test));
  node(ctx, 'IMPL-002', 'running', `${file} alone: do its generated tests pass after the fix loop?`);
  const ran = await runFile(ask, file, files);
  if (!ran) return { dropped: 0 };
  const mine = ran.tests.map((t) => ({ t, ...identityOf(file, t) })).filter((x) => keptIds.has(x.id));
  if (mine.length === 0) {
    const errors = ran.run.result.errors.map((e) => firstLine(e.message)).filter(Boolean);
    return {
      dropped: 0,
      gone: `run alone after the fix loop, the runner collected none of its kept tests (${errors[0] ?? 'no test of it reported'})`,
    };
  }
  const still = mine.filter((x) => failing(x.t));
  if (still.length === 0) return { dropped: 0 };
  for (const x of still) {
    state.rejected.push({
      test: x.id,
      file,
      gate: 'IMPL-002',
      reason: await whyStillFailing(root, file, x.t, x.path),
      round: state.generate_round,
    });
    state.kept = state.kept.filter((k) => k.test !== x.id);
  }
  if (still.length === mine.length) return { dropped: still.length, gone: 'none of its kept tests passes' };
  const out = await dropTests(
    ctx.repo,
    file,
    still.map((x) => x.path),
    true,
  );
  if (out.fileGone) return { dropped: still.length, gone: out.why ?? 'the failing tests could not be taken out alone' };
  // Every drop is verified: what is left must still load and pass.
  node(ctx, 'IMPL-002', 'running', `${file} again, after ${still.length} failing test(s) left it`);
  const again = await runFile(ask, file, files);
  const left = (again?.tests ?? []).filter((t) => keptIds.has(identityOf(file, t).id));
  const broken = left.filter(failing);
  if (again && (left.length === 0 || broken.length > 0))
    return {
      dropped: still.length,
      gone:
        left.length === 0
          ? 'run again after the drop, the runner collected none of its other tests'
          : `run again after the drop, ${broken.length} other test(s) failed (${firstLine(broken[0]!.message)})`,
    };
  return { dropped: still.length };
}

/**
 * After a fix loop that did not succeed: gen's committed tests that still fail are dropped (each file run alone,
 * then again after the drop), the change committed, and the suite run once more to say how gen ends. A committed
 * test never fails; the exit code says what is left: a passing suite with gen's tests in it is a partial success,
 * no generated test left or other failures remaining is a failure.
 */
export async function settleAfterFix(ctx: GenContext): Promise<void> {
  const { state } = ctx;
  const root = ctx.repo.root;
  const loopEnd = state.outcome ?? 'failure: the fix loop did not succeed';
  const ask: AskRunner = { runner: ctx.runner, root, timeoutMs: ctx.options.testTimeoutMs, signal: ctx.signal };
  const files = state.generated_files.filter((f) => isTestFileProper(f) && existsSync(join(root, f)));
  const touched: string[] = [];
  const said: string[] = [];
  let dropped = 0;
  for (const file of files.filter((f) => state.kept.some((k) => k.file === f))) {
    if (ctx.signal.aborted) return;
    const out = await settleFile(ctx, ask, file, files);
    dropped += out.dropped;
    if (out.dropped > 0 || out.gone) touched.push(file);
    if (out.gone) {
      await putBack(ctx, file);
      for (const k of state.kept.filter((k) => k.file === file))
        state.rejected.push({
          test: k.test,
          file,
          gate: 'IMPL-002',
          reason: `removed with its file after the fix loop: ${out.gone}`,
          round: state.generate_round,
        });
      state.kept = state.kept.filter((k) => k.file !== file);
      said.push(`${file} removed (${out.gone})`);
    } else if (out.dropped > 0) said.push(`${file}: ${out.dropped} still-failing test(s) dropped`);
  }
  if (ctx.signal.aborted) return;
  state.generated_files = state.generated_files.filter((f) => existsSync(join(root, f)));
  const sha = touched.length
    ? await ctx.repo.commitFiles(
        touched,
        `test-gen: IMPL-002 - ${dropped} generated test(s) dropped, still failing after the fix loop (${ctx.session.id})`,
      )
    : null;
  if (sha)
    ctx.emit({ type: 'commit', iteration: 0, sha, message: `drop ${dropped} still-failing test(s)`, files: touched });
  // How gen ends is a run's to say: the suite with what gen left committed.
  node(ctx, 'IMPL-002', 'running', 'the full suite with the generated tests left');
  const before = (await readContextPackage(ctx.session.paths.dir)).suite_before;
  const own = ownFailurePredicate(before, state.kept);
  const ownError = ownErrorPredicate(before);
  const run = await ctx.runner.run({
    cwd: root,
    scope: 'full',
    timeoutMs: ctx.options.testTimeoutMs,
    signal: ctx.signal,
  });
  if (ctx.signal.aborted) return;
  const failures = run.result.tests.filter((t) => failing(t) && !own?.(t.id, t.name));
  const errors = run.result.errors.filter((e) => !ownError?.(e));
  const dropNote = said.length ? `; after it, ${said.join('; ')}` : '';
  let outcome: string;
  if (state.kept.length === 0)
    outcome = `failure: no generated test was committed for the change: every kept test still failed after the fix loop (${loopEnd})${dropNote}`;
  else if (failures.length > 0 || errors.length > 0 || run.timedOut)
    outcome = `failure: ${loopEnd.replace(/^\w+: /, '')}${dropNote}; the suite still fails: ${
      run.timedOut
        ? 'its run timed out'
        : [
            ...failures.slice(0, 2).map((f) => `${f.id}: ${firstLine(f.message)}`),
            ...errors.slice(0, 1).map((e) => firstLine(e.message)),
          ].join('; ')
    }`;
  else
    outcome = `partial_success: the fix loop ended without success (${loopEnd.replace(/^\w+: /, '')})${dropNote}; the ${state.kept.length} generated test(s) left pass with the suite`;
  const ok = outcome.startsWith('partial_success');
  node(ctx, 'IMPL-002', ok ? 'done' : 'failed', outcome);
  await updateTask(ctx.session.paths.dir, 'IMPL-002', (t) => (t.status = ok ? 'completed' : 'failed'));
  Object.assign(state, { outcome, step: 'summary' });
  await ctx.save();
  ctx.emit({
    type: 'done',
    outcome: ok ? 'partial_success' : 'failure',
    reason: outcome.slice(outcome.indexOf(': ') + 2),
    exitCode: ok ? EXIT.success : EXIT.failure,
    passRate: null,
  });
}
