import { formatActivity, formatUsage } from '../engine/agents/activity-line.js';
import { humanDuration, wallClock } from '../engine/agents/reset-wait.js';
import type { EngineEvent } from '../engine/events.js';
import { genLine } from '../engine/gen/plain-lines.js';
import { teamLine } from '../engine/team/events.js';

function seconds(ms: number | undefined): string {
  return ms === undefined ? '' : ` in ${(ms / 1000).toFixed(1)} s`;
}

function usage(tokens: number | undefined, costUsd: number | undefined): string {
  const text = formatUsage(tokens, costUsd);
  return text ? ` (${text})` : '';
}

/** One plain line per step for logs and CI; null for events that are not a step (output, state). */
export function plainLine(event: EngineEvent): string | null {
  switch (event.type) {
    case 'session':
      return `fixcycle: ${event.resumed ? 'resuming' : 'session'} ${event.sessionId} — tests: ${event.testCommand} — agents: ${event.chain.join(' → ')}`;
    case 'phase':
      if (event.status === 'running')
        return event.phase === 'completion' ? null : `[${event.phase}] ${event.detail ?? 'running'}...`;
      if (event.status === 'pending') return null;
      return `[${event.phase}] ${event.status}${event.detail ? `: ${event.detail}` : ''}`;
    case 'strategy':
      return `[iteration ${event.iteration}] ${event.strategy} strategy — ${event.reason}`;
    case 'agent':
      if (event.status === 'started') return `[agent] ${event.agent} (${event.role})...`;
      return `[agent] ${event.agent} (${event.role}): ${event.classification}${event.detail ? ` — ${event.detail}` : ''}${seconds(event.durationMs)}${usage(event.tokens, event.costUsd)}`;
    case 'agent-activity':
      // One line per tool call, retry and error; the agent's prose and running totals stay in the TUI and --json.
      if (event.activity.kind === 'text' || event.activity.kind === 'usage') return null;
      return `[agent] ${event.agent}: ${formatActivity(event.activity)}`;
    case 'commit':
      return `[commit] ${event.sha.slice(0, 7)} ${event.message}`;
    case 'rollback':
      return `[rollback] ${event.sha.slice(0, 7)} ${event.message} — ${event.reason}`;
    case 'stuck':
      return `[stuck] ${event.tests.length} test(s) failing 3 iterations in a row: ${event.tests.slice(0, 5).join(', ')}${event.tests.length > 5 ? ', ...' : ''}`;
    case 'await-approval':
      return `[approval] partial success at ${event.passRate}%: ${event.failures.length} low-criticality failure(s) remain`;
    case 'suspects': {
      const top = event.localization.suspects
        .slice(0, 3)
        .map((s) => `${s.file}:${s.function}:${s.startLine}-${s.endLine} (${s.score})`);
      return `[suspects] ${top.join(', ') || 'none'} — evidence: ${event.localization.used.join(', ') || 'none'}`;
    }
    case 'paused':
      return event.paused ? '[paused]' : '[resumed]';
    case 'log':
      return `[${event.level}] ${event.message}`;
    case 'wait':
      if (event.untilMs === null) return null;
      return `[wait] waiting ${humanDuration(event.waitMs ?? event.untilMs - Date.now())} for ${event.reason} (until ${wallClock(event.untilMs)})`;
    case 'done':
      return `[done] ${event.outcome.replace('_', ' ')} — ${event.reason}${event.passRate !== null ? ` (pass rate ${event.passRate}%)` : ''}${event.reportPath ? `\nreport: ${event.reportPath}` : ''}`;
    case 'handback':
      // Its log line says it in full.
      return null;
    case 'gen':
    case 'gen-coverage':
    case 'gen-mutation':
      return genLine(event);
    case 'team-pipeline':
    case 'team-wave':
    case 'team-task':
    case 'team-coverage':
    case 'team-discoveries':
    case 'team-choice':
      return teamLine(event);
    default:
      return null;
  }
}
