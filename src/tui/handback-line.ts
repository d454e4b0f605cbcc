import type { SessionView } from '../state/store.js';

/**
 * What the end of a session did with its fixes, for the done banner: `text` may shorten, `command` (the one that
 * takes fixes left waiting) stays whole. Null when nothing came back and nothing waits.
 */
export function handbackLine(
  handback: SessionView['handback'],
): { text: string; command: string | null; tone: 'good' | 'warn' } | null {
  if (!handback || handback.status === 'nothing') return null;
  const commits = `${handback.commits} commit${handback.commits === 1 ? '' : 's'}`;
  if (handback.status === 'applied')
    return {
      text: `↩ fixes handed back to your branch (${commits})${handback.reason ? `; ${handback.reason}` : ''}`,
      command: null,
      tone: 'good',
    };
  const why =
    handback.status === 'conflict'
      ? 'they meet lines you changed, your version was kept'
      : (handback.reason ?? 'not brought to your branch');
  return {
    text: `⏸ ${commits} wait on ${handback.branch}: ${why}`,
    command: handback.command ?? null,
    tone: 'warn',
  };
}
