import { findingLine } from '../gen/l0/finding.js';
import { projectChecks } from '../gen/l0/project-checks.js';
import { pythonOf } from '../gen/coverage/python.js';
import { staticChecks } from '../gen/l0/static-checks.js';
import { isTestSide } from '../gen/source-files.js';
import { appendDiscoveries } from './discoveries.js';
import { callAgent, noAnswer } from './agent-call.js';
import { findingsOf } from './role-document.js';
import { taskPrompt } from './prompts.js';
import type { TeamContext } from './team-context.js';
import type { TeamTask } from './tasks-csv.js';
import { commitFiles, discardFiles, dirtyFiles } from './worktrees.js';

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
    const critical = findings.filter((f) => f.severity === 'critical');
    if (critical.length === 0) {
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
      const l0 = `L0: ${project.ran.length ? `${project.ran.join(' and ')} ran` : 'no project check ran'}${unavailable.length ? `, could not run ${unavailable.join(', ')}` : ''}, ${findings.length} warning(s), round ${round}`;
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
    if (round === ctx.options.maxL0Rounds) {
      await discardFiles(cwd, tests);
      return {
        ok: false,
        error: `L0 gate: ${critical.length} critical finding(s) after ${round} rounds: ${feedback.slice(0, 3).join('; ')}`,
      };
    }
  }
  return { ok: false, error: 'no L0 round ran' };
}
