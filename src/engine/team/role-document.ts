import { writeTextAtomic } from '../session/atomic.js';
import { appendDiscoveries } from './discoveries.js';
import { callAgent, noAnswer } from './agent-call.js';
import { taskPrompt } from './prompts.js';
import { addWisdom } from './session.js';
import type { TeamContext } from './team-context.js';
import type { TeamTask } from './tasks-csv.js';
import { discardFiles, dirtyFiles } from './worktrees.js';

/** At most 500 characters of an answer as the task's findings: its text without markdown headings, whitespace kept. */
export function findingsOf(text: string): string {
  const body = text
    .split('\n')
    .filter((l) => !/^\s*#/.test(l))
    .join('\n')
    .trim();
  return body.length > 500 ? `${body.slice(0, 497)}...` : body;
}

/**
 * The strategist and the analyst: read-only agent calls (FIXCYCLE_ROLE=analyze) whose answer is the markdown
 * document they own. An agent that edits files anyway has its edits undone.
 */
export async function runDocumentTask(
  ctx: TeamContext,
  task: TeamTask,
): Promise<{ ok: true; findings: string } | { ok: false; error: string }> {
  const path = task.role === 'strategist' ? ctx.paths.strategy : ctx.paths.quality;
  const prompt = await taskPrompt(ctx, task, { strategy: task.role === 'analyst' });
  const before = new Set(await dirtyFiles(ctx.root));
  const { call, calls } = await callAgent(ctx, {
    role: 'analyze',
    taskId: task.id,
    prompt,
    cwd: ctx.root,
    transcriptPath: ctx.paths.transcript(task.id, 1),
  });
  const edited = (await dirtyFiles(ctx.root)).filter((f) => !before.has(f));
  if (edited.length) {
    await discardFiles(ctx.root, edited);
    ctx.emit({
      type: 'log',
      level: 'warn',
      message: `${task.id}: the ${task.role} is read-only; its edits were undone (${edited.join(', ')})`,
    });
  }
  if (!call) return { ok: false, error: noAnswer(calls) };
  const answer = (call.finalText || call.stdout).trim();
  if (!answer)
    return {
      ok: false,
      error: `${call.agent} answered with nothing: the ${task.role} must answer with the markdown document`,
    };
  await writeTextAtomic(path, answer.endsWith('\n') ? answer : `${answer}\n`);
  if (task.role === 'strategist') {
    await ctx.files.run(() =>
      appendDiscoveries(ctx.paths.discoveries, task.id, [
        {
          type: 'framework_detected',
          data: {
            framework: ctx.runner.name,
            config_file: ctx.runner.detectedFrom,
            test_pattern: ctx.runner.describe().full.join(' '),
          },
        },
      ]),
    );
    await addWisdom(
      ctx.paths,
      'decisions',
      `${task.id} (${call.agent}): test strategy written to strategy/test-strategy.md`,
    );
  } else
    await addWisdom(
      ctx.paths,
      'learnings',
      `${task.id} (${call.agent}): quality report written to analysis/quality-report.md`,
    );
  return { ok: true, findings: findingsOf(answer) };
}
