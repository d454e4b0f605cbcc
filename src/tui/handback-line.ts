import type { SessionView } from '../state/store.js';

/** What the end of a session did with its fixes, as the done banner shows it. */
export interface HandbackLines {
  /** May shorten. */
  text: string;
  /** The way to take fixes left waiting (the key, and the command), wrapped rather than cut: it is copied. */
  take: string | null;
  tone: 'good' | 'warn';
}

/**
 * The banner's lines for where a session's fixes went; null when nothing came back and nothing waits. `key`: a key
 * here takes waiting fixes (it is named before the command).
 */
export function handbackLines(handback: SessionView['handback'], key: boolean): HandbackLines | null {
  if (!handback || handback.status === 'nothing') return null;
  const commits = `${handback.commits} commit${handback.commits === 1 ? '' : 's'}`;
  if (handback.status === 'applied')
    return {
      text: `↩ ${commits} handed back to your branch${handback.reason ? `; ${handback.reason}` : ''}`,
      take: null,
      tone: 'good',
    };
  const why =
    handback.status === 'conflict'
      ? 'they meet lines you changed, your version was kept'
      : (handback.reason ?? 'not brought to your branch');
  const command = handback.command ?? null;
  const withKey = key && handback.status === 'waiting';
  return {
    text: `⏸ ${commits} wait on ${handback.branch}: ${why}`,
    take: withKey ? `h takes them${command ? `, or: ${command}` : ''}` : command ? `take them: ${command}` : null,
    tone: 'warn',
  };
}

/** Rows the lines take at `width`: the take line indented by 4 and wrapped at spaces as the terminal shows it. */
export function handbackRows(lines: HandbackLines | null, width: number): number {
  if (!lines) return 0;
  if (!lines.take) return 1;
  const room = Math.max(10, width);
  let rows = 1;
  let used = 0;
  for (const word of `    ${lines.take}`.split(/(?<= )/)) {
    if (used + word.trimEnd().length > room && used > 0) {
      rows++;
      used = 0;
    }
    // A word longer than the row is cut into rows of its own.
    used += word.length;
    while (used > room) {
      rows++;
      used -= room;
    }
  }
  return 1 + rows;
}
