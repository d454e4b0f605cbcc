import { findingLine } from '../gen/l0/finding.js';
import { projectChecks } from '../gen/l0/project-checks.js';
import { pythonOf } from '../gen/coverage/python.js';
import { staticChecks } from '../gen/l0/static-checks.js';
import { l0Verdict, reportedFindings } from '../gen/l0/verdict.js';
import { collectFile } from '../gen/collect.js';
import { isTestFileProper, isTestSide } from '../gen/source-files.js';
import { restoreLeftMutant } from '../gen/mutation/with-mutant.js';
import { appendDiscoveries } from './discoveries.js';
import { judgeTests } from './judge-tests.js';
import { callAgent, noAnswer } from './agent-call.js';
import { findingsOf } from './role-document.js';
import { taskPrompt } from './prompts.js';
import type { TeamContext } from './team-context.js';
import type { TeamTask } from './tasks-csv.js';
import { commitFiles, discardFiles, dirtyFiles } from './worktrees.js';
import { dropUntilClean, settleDeleted } from './l0-drops.js';

/**
 * The runner's judgement, as gen's: a test file the runner collects no test from (it does not load, or holds none)
 * is not committed. A runner that cannot run one file decides nothing here.
 */
async function dropUncollected(ctx: TeamContext, cwd: string, written: Set<string>): Promise<string[]> {
  const dropped: string[] = [];
  const files = [...written].filter(isTestFileProper);
  for (const file of files) {
    const ask = { runner: ctx.runner, root: cwd, timeoutMs: ctx.options.testTimeoutMs, signal: ctx.signal };
    const found = await collectFile(ask, file, files);
    if (found.unknown || found.tests.length > 0) continue;
    await discardFiles(cwd, [file]);
    written.delete(file);
    const said = found.run?.result.errors[0]?.message.split('\n')[0] ?? found.run?.noTestRan?.message ?? '';
    dropped.push(`${file} (the runner collected no test from it${said ? `: ${said.slice(0, 160)}` : ''})`);
  }
  return dropped;
}

/** `unavailable`: the L0 checks the project has but that could not run (their tool is not installed where the task ran). */
export type GeneratorOutcome =
  | { ok: true; files: string[]; findings: string; commit: string | null; rounds: number; unavailable: string[] }
  | { ok: false; error: string };

/**
 * A generator task (FIXCYCLE_ROLE=generate) in `cwd` (the main tree or the task's worktree): the agent writes test
 * files only; they must pass gen's L0 gate (its static checks and the project's typecheck and linter), with the
 * critical findings sent back for at most `maxL0Rounds` rounds. The tests that pass are committed in `cwd`.
 */
export async function runGenerator(
  ctx: TeamContext,
  task: TeamTask,
  cwd: string,
  aim: { feedback?: string[]; feedbackTitle?: string; gcRound?: number } = {},
): Promise<GeneratorOutcome> {
  let feedback = aim.feedback;
  let title = aim.feedbackTitle;
  const written = new Set<string>();
  const sources = ctx.changed.map((f) => f.file);
  // A stopped mutant run left its mutant in the module: the original goes back before anything reads it.
  const journal = ctx.paths.mutantJournal(task.id);
  const restored = restoreLeftMutant(journal);
  if (restored)
    ctx.emit({ type: 'log', level: 'info', message: `put back ${restored}: a stopped mutant run left it changed` });
  for (let round = 1; round <= ctx.options.maxL0Rounds; round++) {
    const before = new Set(await dirtyFiles(cwd));
    const prompt = await taskPrompt(ctx, task, { strategy: true, feedback, feedbackTitle: title });
    const transcript = ctx.paths.transcript(`${task.id}${aim.gcRound ? `-gc${aim.gcRound}` : ''}`, round);
    const extraEnv: Record<string, string> = {
      FIXCYCLE_ROUND: String(round),
      ...(aim.gcRound ? { FIXCYCLE_GC_ROUND: String(aim.gcRound) } : {}),
    };
    const { call, calls } = await callAgent(ctx, {
      role: 'generate',
      taskId: task.id,
      layer: task.layer,
      prompt,
      cwd,
      transcriptPath: transcript,
      extraEnv,
    });
    const changed = (await dirtyFiles(cwd)).filter((f) => !before.has(f));
    if (!call) {
      await discardFiles(cwd, changed);
      return { ok: false, error: noAnswer(calls) };
    }
    const touched = changed.filter((f) => !isTestSide(f));
    if (touched.length) {
      await discardFiles(cwd, [...changed, ...written]);
      return {
        ok: false,
        error: `the generator changed source files (${touched.join(', ')}); generation may add or change test files only: rejected and reverted`,
      };
    }
    for (const f of changed) written.add(f);
    // A file written in an earlier round and deleted in this one is no test of the task: never committed (git
    // cannot commit a path it never tracked). A tracked test file it deleted is the project's: put back.
    await settleDeleted(cwd, written);
    const tests = [...written].sort();
    if (tests.length === 0) return { ok: false, error: `${call.agent} wrote no test file` };
    const project = await projectChecks(
      cwd,
      [...tests, ...sources],
      ctx.options.testTimeoutMs,
      ctx.signal,
      pythonOf(ctx.runner.describe().full),
      ctx.runner.describe().env,
    );
    const findings = [...project.findings, ...(await staticChecks(cwd, tests, sources))];
    // A check the project has but cannot run here is said, not skipped silently (a worktree without dependencies).
    const unavailable = project.skipped.filter((s) => / but no /.test(s));
    // As gen's L0: the project's linter and a finding in the changed code are reported, never sent back nor a drop.
    const verdict = l0Verdict(findings, tests, sources);
    let critical = verdict.critical;
    // The last round: what still fails L0 goes (the failing tests alone where the finding is one test's), the
    // rest is committed; one bad test never fails a task whose other tests are good.
    const last = round === ctx.options.maxL0Rounds;
    let droppedAtLast: string[] = [];
    if (critical.length > 0 && last) {
      droppedAtLast = await dropUntilClean(ctx, cwd, critical, written, sources);
      critical = [];
    }
    if (critical.length === 0) {
      // gen's judges on what passed L0: the runner's results, and mutants for a test L0 doubts.
      droppedAtLast.push(...(await judgeTests(ctx, task, cwd, written, journal)));
      droppedAtLast.push(...(await dropUncollected(ctx, cwd, written)));
      const tests = [...written].sort();
      if (tests.length === 0)
        return {
          ok: false,
          error: `no test file left to commit after ${round} round(s): dropped ${droppedAtLast.join(', ')}`,
        };
      const commit = await commitFiles(
        cwd,
        tests,
        `test-team: ${task.id} ${task.layer} tests${aim.gcRound ? ` (GC round ${aim.gcRound})` : ''} (${ctx.sessionId})`,
      );
      const skippedChecks = unavailable.map((s) => ({
        type: 'check_skipped' as const,
        data: {
          pattern: s.split(' ')[0],
          description: `L0 ${s}`,
          where: cwd === ctx.root ? 'main tree' : 'task worktree',
        },
      }));
      await ctx.files.run(() =>
        appendDiscoveries(ctx.paths.discoveries, task.id, [
          ...tests.map((file) => ({
            type: 'test_generated' as const,
            data: { file, layer: task.layer, source_file: sources.join(';') },
          })),
          ...skippedChecks,
        ]),
      );
      const said = findingsOf(call.finalText || call.stdout);
      const l0 = `L0: ${project.ran.length ? `${project.ran.join(' and ')} ran` : 'no project check ran'}${unavailable.length ? `, could not run ${unavailable.join(', ')}` : ''}, ${findings.length} warning(s), round ${round}${reportedFindings('the changed code', verdict.inChange)}${droppedAtLast.length ? `; dropped ${droppedAtLast.join(', ')}` : ''}`;
      return {
        ok: true,
        files: tests,
        commit,
        rounds: round,
        unavailable,
        findings: findingsOf(`${call.agent} wrote ${tests.join(', ')} (${l0}).${said ? `\n${said}` : ''}`),
      };
    }
    ctx.emit({
      type: 'team-task',
      id: task.id,
      role: task.role,
      layer: task.layer,
      wave: Number(task.wave),
      status: 'running',
      detail: `L0 round ${round}: ${critical.length} critical finding(s): ${critical.slice(0, 3).map(findingLine).join('; ')}`,
    });
    feedback = critical.map(findingLine);
    title = `Your last round failed code validation (L0); fix these critical findings`;
  }
  return { ok: false, error: 'no L0 round ran' };
}
