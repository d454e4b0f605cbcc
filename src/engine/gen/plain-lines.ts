import type { GenEvent } from './events.js';
import { mutationLines } from './mutation/mutation-report.js';

/** The headless line of a gen event: one per phase and gate round, findings indented under it. */
export function genLine(event: GenEvent): string | null {
  if (event.type === 'gen-mutation')
    return mutationLines({ modules: event.modules, outcomes: [], ...(event.note ? { note: event.note } : {}) })
      .map((l) => `[mutants] ${l}`)
      .join('\n');
  if (event.type === 'gen-coverage') {
    if (!event.measured) return `[coverage] not measured: ${event.reason ?? 'no coverage tool for this runner'}`;
    return event.files
      .map((f) =>
        f.note
          ? `[coverage] ${f.file}: ${f.note}`
          : `[coverage] ${f.file}: lines ${f.linesBefore ?? '-'}% → ${f.linesAfter ?? '-'}% (target ${f.targetLines}%), branches ${f.branchesBefore ?? '-'}% → ${f.branchesAfter ?? '-'}% (target ${f.targetBranches}%)`,
      )
      .join('\n');
  }
  if (event.status === 'pending' && !event.detail) return null;
  const head = `[${event.node}] ${event.status === 'running' ? `${event.detail ?? 'running'}...` : `${event.status}${event.detail ? `: ${event.detail}` : ''}`}`;
  if (event.status === 'running' || !event.findings?.length) return head;
  return [
    head,
    ...event.findings.slice(0, 20).map((f) => `    - ${f}`),
    ...(event.findings.length > 20 ? [`    - ... ${event.findings.length - 20} more`] : []),
  ].join('\n');
}
