import { readFile } from 'node:fs/promises';
import { boardText, readBoard } from './discoveries.js';
import type { TeamContext } from './team-context.js';
import { listCell, type TeamTask } from './tasks-csv.js';

const ROLE_ASK: Record<TeamTask['role'], string> = {
  strategist:
    'You are the test strategist. Read the change (do not edit any file). Answer with the test strategy as a markdown document: the framework and conventions, which layers (L1 unit, L2 integration, L3 E2E) to cover, the priority files and functions with the cases each needs, and risks. Your whole answer is saved as strategy/test-strategy.md.',
  generator:
    'You are a test generator. Write the tests for this layer where the project keeps its tests, in its conventions. Add or change test files only: a change to any other file rejects the whole round. Every test must import only what the code really exports and must assert something.',
  executor: '',
  analyst:
    'You are the test quality analyst. Do not edit any file. Answer with a markdown quality report: per-layer pass rate and coverage against targets, the defects found, the gaps left, and concrete recommendations. Your whole answer is saved as analysis/quality-report.md.',
};

/** The findings of the tasks this one takes context from. */
function previousContext(ctx: TeamContext, task: TeamTask): string {
  const from = listCell(task.context_from)
    .map((id) => ctx.tasks.find((t) => t.id === id))
    .filter((t): t is TeamTask => Boolean(t));
  if (from.length === 0) return '(none)';
  return from
    .map(
      (t) =>
        `### ${t.id} (${t.role}${t.layer ? ` ${t.layer}` : ''}): ${t.status}\n${t.findings || t.error || '(no findings)'}${t.test_files ? `\nTest files: ${listCell(t.test_files).join(', ')}` : ''}${t.pass_rate ? `\nPass rate: ${t.pass_rate}, coverage: ${t.coverage_achieved}%` : ''}`,
    )
    .join('\n\n');
}

/** The prompt of a strategist, generator or analyst task: the task, the change, context_from findings, the board. */
export async function taskPrompt(
  ctx: TeamContext,
  task: TeamTask,
  extra: { feedback?: string[]; feedbackTitle?: string; strategy?: boolean } = {},
): Promise<string> {
  const board = await readBoard(ctx.paths.discoveries);
  const strategy = extra.strategy ? await readFile(ctx.paths.strategy, 'utf8').catch(() => '') : '';
  const changed =
    ctx.changed.map((f) => `- ${f.file} (changed lines ${f.lines.length})`).join('\n') ||
    ctx.record.scope.files.map((f) => `- ${f}`).join('\n');
  return [
    `# ${task.id}: ${task.title}`,
    '',
    ROLE_ASK[task.role],
    '',
    `Task: ${task.description}`,
    task.layer ? `Layer: ${task.layer}; coverage target ${task.coverage_target}% of the changed lines.` : '',
    ctx.record.requirement ? `Requirement: ${ctx.record.requirement}` : '',
    '',
    `## The change (${ctx.record.scope.describedAs}; modules: ${ctx.record.scope.modules.join(', ') || 'none'})`,
    changed,
    '',
    '## Previous context (findings of the tasks this one builds on)',
    previousContext(ctx, task),
    strategy ? `\n## Test strategy\n${strategy.slice(0, 6_000)}` : '',
    '',
    `## Discoveries so far (${ctx.paths.discoveries})`,
    boardText(board),
    '',
    `Append what you discover to ${ctx.paths.discoveries}, one JSON object a line: {"ts":"<ISO time>","worker":"${task.id}","type":"framework_detected|test_generated|defect_found|coverage_gap|convention_found|fix_applied","data":{...}}. Never edit or remove existing lines.`,
    extra.feedback?.length
      ? `\n## ${extra.feedbackTitle ?? 'Feedback'}\n${extra.feedback.map((f) => `- ${f}`).join('\n')}`
      : '',
  ]
    .filter((l) => l !== null)
    .join('\n');
}
