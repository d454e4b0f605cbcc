import type { AgentActivity } from './agent.js';

function seconds(ms: number): string {
  const s = ms / 1000;
  return `${Number.isInteger(s) || s >= 10 ? Math.round(s) : s.toFixed(1)} s`;
}

/** `1,234 tokens · $0.0123`: what a call or an iteration used, as far as the CLI reported it. */
export function formatUsage(tokens: number | undefined, costUsd: number | undefined): string {
  const parts: string[] = [];
  if (tokens !== undefined) parts.push(`${tokens.toLocaleString('en-US')} tokens`);
  if (costUsd !== undefined) parts.push(`$${costUsd < 0.01 && costUsd > 0 ? costUsd.toFixed(4) : costUsd.toFixed(2)}`);
  return parts.join(' · ');
}

/**
 * One activity as a person reads it in the output pane and the headless log: `› read src/math.js`,
 * `✎ edit src/math.js`, `$ npm test`, `↻ retry in 30 s: 429 Too Many Requests`.
 */
export function formatActivity(activity: AgentActivity): string {
  switch (activity.kind) {
    case 'tool': {
      const mark = { read: '›', edit: '✎', write: '✎', run: '$', search: '⌕', other: '·' }[activity.action];
      const what =
        activity.action === 'run'
          ? (activity.target ?? activity.tool)
          : `${activity.action === 'other' ? activity.tool : activity.action}${activity.target ? ` ${activity.target}` : ''}`;
      return `${mark} ${what.split('\n')[0]}${activity.denied ? ' (refused)' : ''}`;
    }
    case 'retry':
      return `↻ retry${activity.waitMs !== undefined ? ` in ${seconds(activity.waitMs)}` : ''}: ${activity.detail}`;
    case 'text':
      return `» ${activity.text}`;
    case 'usage':
      return `Σ ${formatUsage(activity.tokens, activity.costUsd)}`;
    case 'error':
      return `✗ ${activity.detail}`;
  }
}

/** A tool's target relative to the repository, as the rest of fixcycle names files. */
export function relativeActivity(activity: AgentActivity, root: string): AgentActivity {
  if (activity.kind !== 'tool' || !activity.target) return activity;
  const prefix = root.endsWith('/') ? root : `${root}/`;
  return activity.target.startsWith(prefix) ? { ...activity, target: activity.target.slice(prefix.length) } : activity;
}
