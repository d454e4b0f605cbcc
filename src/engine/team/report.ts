import { copyFile } from 'node:fs/promises';
import { writeTextAtomic } from '../session/atomic.js';
import { readBoard } from './discoveries.js';
import { PIPELINE_STAGES } from './pipelines.js';
import { readGcState } from './session.js';
import type { TeamContext } from './team-context.js';
import { listCell } from './tasks-csv.js';

const ICON: Record<string, string> = {
  completed: '[DONE]',
  failed: '[FAIL]',
  skipped: '[SKIP]',
  pending: '[TODO]',
  running: '[RUN]',
};

/** context.md, the human-readable report, and results.csv, the final export of tasks.csv. */
export async function writeReport(ctx: TeamContext): Promise<void> {
  const { tasks } = ctx;
  const gc = await readGcState(ctx.paths);
  const board = await readBoard(ctx.paths.discoveries);
  const count = (s: string) => tasks.filter((t) => t.status === s).length;
  const lines = [
    '# Team Testing Report',
    '',
    `**Session**: ${ctx.sessionId}`,
    `**Date**: ${new Date().toISOString().slice(0, 10)}`,
    `**Change**: ${ctx.record.scope.describedAs}: ${ctx.record.scope.files.length} file(s), modules ${ctx.record.scope.modules.join(', ') || 'none'}`,
    `**Pipeline**: ${ctx.record.pipeline} (${ctx.record.pipeline_why}; accepted by ${ctx.record.accepted_by}): ${PIPELINE_STAGES[ctx.record.pipeline]}`,
    '',
    '## Summary',
    '| Status | Count |',
    '|--------|-------|',
    `| Completed | ${count('completed')} |`,
    `| Failed | ${count('failed')} |`,
    `| Skipped | ${count('skipped')} |`,
    '',
    '## Coverage Results',
    '',
    '| Layer | Coverage | Target | Pass Rate | GC Rounds |',
    '|-------|----------|--------|-----------|-----------|',
    ...tasks
      .filter((t) => t.role === 'executor')
      .map(
        (t) =>
          `| ${t.layer} | ${t.coverage_achieved ? `${t.coverage_achieved}%` : 'N/A'} | ${t.coverage_target}% | ${t.pass_rate || 'N/A'} | ${gc.rounds[t.layer] ?? 0} |`,
      ),
    ...(gc.warnings.length ? ['', ...gc.warnings.map((w) => `> warning: ${w}`)] : []),
    '',
    '## Wave Execution',
    '',
  ];
  const waves = Math.max(...tasks.map((t) => Number(t.wave)));
  for (let w = 1; w <= waves; w++) {
    lines.push(`### Wave ${w}`, '');
    for (const t of tasks.filter((x) => Number(x.wave) === w))
      lines.push(
        `${ICON[t.status] ?? t.status} **${t.id} ${t.title}** [${t.role}/${t.layer || '-'}] ${t.status === 'completed' ? t.findings.replace(/\n/g, ' ') : t.error}`,
        '',
      );
  }
  const defects = board.entries.filter((d) => d.type === 'defect_found');
  lines.push(
    '## Defects Found',
    '',
    ...(defects.length
      ? defects.map((d) => `- ${d.worker}: ${String(d.data.description ?? JSON.stringify(d.data))}`)
      : ['- none']),
    '',
  );
  const skipped = board.entries.filter((d) => d.type === 'check_skipped');
  if (skipped.length)
    lines.push(
      '## Checks That Could Not Run',
      '',
      ...skipped.map((d) => `- ${d.worker}: ${String(d.data.description ?? JSON.stringify(d.data))}`),
      '',
    );
  const files = [...new Set(tasks.flatMap((t) => listCell(t.test_files)))];
  lines.push(
    '## Files Produced',
    '',
    ...files.map((f) => `- ${f}`),
    '- strategy/test-strategy.md',
    ...tasks.filter((t) => t.role === 'executor').map((t) => `- results/run-${t.layer}.json`),
    '- analysis/quality-report.md',
    '',
  );
  lines.push(
    `## Discovery Board`,
    '',
    `${board.entries.length} discoveries${board.malformed ? `, ${board.malformed} malformed line(s) skipped` : ''}`,
    '',
  );
  await writeTextAtomic(ctx.paths.context, lines.join('\n'));
  await copyFile(ctx.paths.tasks, ctx.paths.results);
}
