import { messageSimilarity } from '../decisions/similarity.js';
import { SAME_CAUSE_SIMILARITY, STUCK_ANALYSIS_RUN } from '../agents/triggers.js';
import type { FixHistoryEntry } from '../session/schema.js';
import { fillTemplate, loadTemplate } from './templates.js';

function attemptLine(h: FixHistoryEntry): string {
  const after = h.pass_rate_after === null ? 'not measured' : `${h.pass_rate_after}%`;
  return [
    `- iteration ${h.iteration}: ${h.outcome.replace(/_/g, ' ')} (pass rate ${h.pass_rate_before}% -> ${after})${h.reason ? `; ${h.reason}` : ''}`,
    ...(h.approach ? [`  approach: ${h.approach}`] : []),
    `  changed: ${h.files_changed.join(', ') || 'nothing'}`,
  ].join('\n');
}

/**
 * The block added to the analysis prompt when a single agent names the same root cause a third time
 * (templates/reask.v1.md): the cause, and what each fix built on it did.
 */
export function renderReaskBlock(cause: string, history: readonly FixHistoryEntry[]): string {
  const tried = history.filter((h) => h.root_causes.some((c) => messageSimilarity(c, cause) >= SAME_CAUSE_SIMILARITY));
  return fillTemplate(
    loadTemplate('reask'),
    {
      run: STUCK_ANALYSIS_RUN - 1,
      cause,
      attempts: tried.length ? tried.map(attemptLine).join('\n') : '- (the fix history has no details of them)',
    },
    'templates/reask.v1.md',
  ).trim();
}
