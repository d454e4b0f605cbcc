import { readFile } from 'node:fs/promises';
import { agentPolicies } from '../agents/policies.js';
import { writeJsonAtomic } from '../session/atomic.js';
import { prepareLoop, type StartOptions } from '../start.js';
import { EXIT } from '../loop/exit-codes.js';
import type { LoopResult } from '../loop/loop.js';
import type { LoopControls } from '../events.js';
import { isTestFileProper } from './source-files.js';
import { allowGeneratedTests } from './generated-tests-guard.js';
import { node, type GenContext } from './gen-context.js';
import { ownErrorPredicate, ownFailurePredicate } from './own-failures.js';
import { readContextPackage } from './phase-analysis.js';
import { updateTask } from './phase-tasks.js';

/** Commits the kept tests, exactly those files, before the fix loop measures its baseline. */
export async function commitKept(ctx: GenContext): Promise<void> {
  const { state } = ctx;
  const files = [
    ...new Set([
      ...state.generated_files,
      ...(await ctx.repo.changedFiles()).filter((f) => state.generated_files.includes(f)),
    ]),
  ];
  // The last guard: a test file is committed for the tests the runner collected from it and the quality gate
  // kept (its runs, its drops run again). One with none (imports, an empty describe) is never committed; a title
  // made at run time (`it(title(x))`, `test.each`) counts as the runner named it.
  const empty = files.filter((f) => isTestFileProper(f) && !state.kept.some((k) => k.file === f));
  if (empty.length) {
    await ctx.repo.restoreFiles(empty);
    for (const f of empty)
      state.rejected.push({
        test: f,
        file: f,
        gate: 'IMPL-001.5',
        reason: 'holds no kept test (the runner collected none from it, or every one was dropped): not committed',
        round: state.generate_round,
      });
    state.generated_files = state.generated_files.filter((f) => !empty.includes(f));
  }
  // go's own runs may rewrite go.mod/go.sum (a module lookup under -mod=mod): gen changes tests only, so they go
  // back to their committed text before the fix loop checks that the tree is clean.
  const goFiles = (await ctx.repo.changedFiles()).filter((f) => /(^|\/)go\.(mod|sum)$/.test(f) && !files.includes(f));
  if (goFiles.length) {
    await ctx.repo.restoreFiles(goFiles);
    ctx.emit({
      type: 'log',
      level: 'info',
      message: `restored ${goFiles.join(', ')}: changed by go during the gates, not by the generation`,
    });
  }
  const present = (await ctx.repo.changedFiles()).filter((f) => files.includes(f) && !empty.includes(f));
  const message = `test-gen: IMPL-001 - ${state.kept.length} generated test(s) kept, ${state.rejected.length} rejected (${ctx.session.id})`;
  // Stopped after `git commit` and before the state said so: the commit of this session is already HEAD.
  const made =
    state.gen_commit ??
    (await ctx.repo.log(1)).find(
      (c) => c.message.startsWith('test-gen: IMPL-001') && c.message.endsWith(`(${ctx.session.id})`),
    )?.sha ??
    null;
  const sha = present.length ? await ctx.repo.commitFiles(present, message) : made;
  state.gen_commit = sha;
  if (sha && sha !== made) ctx.emit({ type: 'commit', iteration: 0, sha, message, files: present });
  if (!sha) {
    // Nothing of gen's own to fix or protect: the run says it made no test, and does not end as a success.
    const why = state.rejected.length
      ? `every generated test was rejected (${state.rejected.length}: ${state.rejected
          .slice(0, 3)
          .map((r) => `${r.test}: ${r.reason}`)
          .join('; ')}${state.rejected.length > 3 ? '; ...' : ''})`
      : 'the generator wrote no test the gates kept';
    const reason = `no generated test was committed for the change: ${why}`;
    node(ctx, 'IMPL-002', 'skipped', 'no generated test to run the fix loop on');
    await updateTask(ctx.session.paths.dir, 'IMPL-002', (t) => (t.status = 'failed'));
    state.outcome = `failure: ${reason}`;
    state.step = 'summary';
    await ctx.save();
    ctx.emit({ type: 'done', outcome: 'failure', reason, exitCode: EXIT.failure, passRate: null });
    return;
  }
  state.step = 'fix';
  await ctx.save();
}

/** The loop's options for IMPL-002, from gen's. */
export type FixLoopOptions = Omit<StartOptions, 'emit' | 'resumeSession' | 'sessionName' | 'policies' | 'cwd'> & {
  onLoopControls?: (controls: LoopControls) => void;
};

/**
 * IMPL-002: the fix loop on the full suite, in this session's folder. The tests generated here may be fixed by
 * the agent (they are new and may be wrong); every test that existed before stays protected by the guard.
 */
export async function runFixLoop(
  ctx: GenContext,
  loopOptions: FixLoopOptions,
  releaseGenLock: () => Promise<void>,
): Promise<LoopResult> {
  const { state } = ctx;
  const dir = ctx.session.paths.dir;
  node(ctx, 'IMPL-002', 'running', 'the fix loop on the full suite');
  await updateTask(dir, 'IMPL-002', (t) => (t.status = 'in_progress'));
  const meta = JSON.parse(await readFile(ctx.session.paths.workflowSession, 'utf8')) as Record<string, unknown>;
  const resumed = await ctx.session.exists();
  const generated = state.generated_files;
  // Failures there before gen are the project's own: the loop reports them and works on what gen's tests bring.
  const before = (await readContextPackage(dir)).suite_before;
  const own = ownFailurePredicate(before, state.kept);
  const ownError = ownErrorPredicate(before);
  await releaseGenLock();
  const prepared = await prepareLoop({
    ...loopOptions,
    ...(own ? { isOwnFailure: own } : {}),
    ...(ownError ? { isOwnError: ownError } : {}),
    cwd: ctx.repo.root,
    // The loop works where gen does: gen's own worktree (whose leftovers of gen's runs are no user's work), or the
    // user's tree with --in-place.
    inPlace: true,
    ownTree: Boolean(state.worktree),
    emit: ctx.emit,
    resumeSession: resumed ? ctx.session.id : undefined,
    sessionName: ctx.session.id.replace(/^WFS-test-/, ''),
    policies: (loopCtx) => {
      const base = agentPolicies(loopCtx, { budget: loopOptions.budget });
      return { ...base, checkFix: allowGeneratedTests(base.checkFix!, generated) };
    },
  });
  // prepareLoop writes its own workflow-session.json for a new loop; keep gen's fields in it.
  await prepared.ctx.sessionWritten;
  await writeJsonAtomic(ctx.session.paths.workflowSession, {
    ...JSON.parse(await readFile(ctx.session.paths.workflowSession, 'utf8')),
    ...meta,
  });
  // Ctrl-C or quitting the TUI stops the loop after its running step, as in `fixcycle run`.
  const stop = (): void => prepared.loop.controls.stop();
  loopOptions.onLoopControls?.(prepared.loop.controls);
  ctx.signal.addEventListener('abort', stop, { once: true });
  try {
    const result = await prepared.loop.run();
    const ok = result.outcome === 'success' || result.outcome === 'partial_success';
    const results = await ctx.session.readResults();
    const left = results?.own_failures ?? [];
    const ownErrors = results?.own_errors ?? [];
    const owns = `${
      left.length > 0
        ? `; ${left.length} failure(s) are the project's own, failing before gen: ${left
            .slice(0, 3)
            .map((f) => f.id)
            .join(', ')}${left.length > 3 ? ', ...' : ''}`
        : ''
    }${
      ownErrors.length > 0
        ? `; ${ownErrors.length} error(s) outside tests are the project's own, there before gen: ${ownErrors
            .slice(0, 2)
            .map((e) => e.message.split('\n')[0]!.slice(0, 120))
            .join('; ')}`
        : ''
    }`;
    node(ctx, 'IMPL-002', ok ? 'done' : 'failed', `${result.outcome}: ${result.reason}${owns}`);
    await updateTask(
      dir,
      'IMPL-002',
      (t) =>
        (t.status = ok
          ? 'completed'
          : result.outcome === 'interrupted' || result.outcome === 'awaiting_approval'
            ? 'in_progress'
            : 'failed'),
    );
    if (result.outcome !== 'interrupted' && result.outcome !== 'awaiting_approval') {
      // A loop that did not succeed may leave gen's committed tests failing: they are settled before the summary.
      state.step = ok ? 'summary' : 'settle';
      state.outcome = `${result.outcome}: ${result.reason}${owns}`;
    }
    return result;
  } finally {
    ctx.signal.removeEventListener('abort', stop);
    await prepared.release();
  }
}
