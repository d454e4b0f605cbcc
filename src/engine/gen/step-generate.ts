import { readFileSync } from 'node:fs';
import { throughLink } from '../session/paths.js';
import { join } from 'node:path';
import { callChain } from './agent-call.js';
import { node, type GenContext } from './gen-context.js';
import { genPaths } from './paths.js';
import { readAnalysis, readContextPackage } from './phase-analysis.js';
import { updateTask } from './phase-tasks.js';
import { renderGeneratePrompt } from './prompts.js';
import { restoreSnapshot, snapshotFiles } from './snapshot.js';
import { isTestSide } from './source-files.js';

function readText(root: string, file: string): string | null {
  try {
    return readFileSync(join(root, file), 'utf8');
  } catch {
    return null;
  }
}

/** Files changed since HEAD that the earlier rounds did not write. */
async function changedSince(ctx: GenContext, before: ReadonlySet<string>): Promise<string[]> {
  return (await ctx.repo.changedFiles()).filter((f) => !before.has(f));
}

/**
 * IMPL-001: the agent writes tests (FIXCYCLE_ROLE=generate). A round that changes anything but test files is
 * rejected and undone (the guard), and counts as a round sent back with the reason.
 */
export async function generateRound(ctx: GenContext): Promise<void> {
  const { state } = ctx;
  const dir = ctx.session.paths.dir;
  const paths = genPaths(dir);
  const round = state.generate_round + 1;
  const kind = state.feedback_kind;
  node(
    ctx,
    'IMPL-001',
    'running',
    `round ${round}${kind === 'initial' ? '' : kind === 'coverage' ? ': aimed at uncovered lines' : ': with the findings of the last round'}`,
    { round },
  );
  await updateTask(dir, 'IMPL-001', (t) => {
    t.status = 'in_progress';
    Object.assign(t.context, { round, findings: state.feedback, feedback_kind: kind });
  });
  const [pkg, analysis] = await Promise.all([readContextPackage(dir), readAnalysis(dir)]);
  const prompt = renderGeneratePrompt({
    round,
    taskPath: throughLink(ctx.repo.root, paths.task('IMPL-001')),
    analysis,
    pkg,
    root: ctx.repo.root,
    feedback: state.feedback,
    feedbackKind: kind,
  });
  const before = new Set(await ctx.repo.changedFiles());
  const snap = snapshotFiles(ctx.repo.root, [...before]);
  const undo = async (): Promise<void> => {
    const created = await changedSince(ctx, before);
    restoreSnapshot(ctx.repo.root, snap, created);
    await ctx.repo.restoreFiles(created.filter((f) => !snap.has(f)));
  };
  const outcome = await callChain(
    ctx,
    {
      role: 'generate',
      taskId: 'IMPL-001',
      taskPath: paths.task('IMPL-001'),
      prompt,
      transcriptPath: paths.generateOutput(round),
      undo,
    },
    () => ({ ok: true, value: true }),
  );
  state.generate_round = round;
  if (ctx.signal.aborted) return;
  if (!outcome.agent) {
    const tried = outcome.calls.map((c) => `${c.agent}: ${c.classification}`).join(', ') || 'no agent available';
    node(ctx, 'IMPL-001', 'failed', `round ${round}: no agent could write the tests (${tried})`, { round });
    await updateTask(dir, 'IMPL-001', (t) => (t.status = 'failed'));
    state.outcome = `no agent could write the tests (${tried})`;
    state.step = 'summary';
    return ctx.save();
  }
  const changed = await ctx.repo.changedFiles();
  const touched = changed.filter((f) => !isTestSide(f) && !before.has(f));
  if (touched.length > 0) {
    await undo();
    const reason = `the generation changed source files (${touched.join(', ')}); generation may add or change test files only`;
    state.rejected.push({
      test: `round ${round} (whole round)`,
      gate: 'IMPL-001',
      reason: `${reason}: rejected and reverted`,
      round,
    });
    node(ctx, 'IMPL-001', 'failed', `round ${round} rejected and reverted: ${reason}`, { round, findings: [reason] });
    state.l0_rounds += 1;
    if (state.l0_rounds >= ctx.options.maxL0Rounds) {
      state.outcome = `the generation kept changing source files (${state.l0_rounds} rounds)`;
      state.step = 'summary';
    } else Object.assign(state, { feedback: [reason], feedback_kind: 'source', step: 'generate' });
    return ctx.save();
  }
  // What this round wrote: new files, and files of earlier rounds it changed.
  const written = changed.filter(
    (f) => isTestSide(f) && (!before.has(f) || snap.get(f) !== readText(ctx.repo.root, f)),
  );
  state.generated_files = [...new Set([...state.generated_files, ...changed.filter((f) => isTestSide(f))])].sort();
  node(
    ctx,
    'IMPL-001',
    'done',
    `round ${round}: ${outcome.agent} wrote ${written.length} test file(s): ${written.join(', ') || 'none'}`,
    { round },
  );
  await updateTask(dir, 'IMPL-001', (t) => {
    t.status = 'completed';
    Object.assign(t.context, { generated_files: state.generated_files });
  });
  state.step = 'validate';
  await ctx.save();
}
