import { useSession } from '../tui/context.js';
import { useNow } from '../tui/use-now.js';

/**
 * `claude rate-limited: waiting 42s` while fixcycle waits out an agent's rate limit, ticking each second;
 * null otherwise (and then no timer runs).
 */
export function useWaitCountdown(): string | null {
  const waiting = useSession((s) => s.waiting);
  const now = useNow(Boolean(waiting));
  if (!waiting) return null;
  const left = Math.max(0, Math.ceil((waiting.untilMs - now) / 1000));
  const shown = left >= 60 ? `${Math.floor(left / 60)}m ${String(left % 60).padStart(2, '0')}s` : `${left}s`;
  return `${waiting.agent} rate-limited: waiting ${shown}`;
}
