import { useEffect, useState } from 'react';
import { useSession } from '../tui/context.js';

/** 1 s: the countdown shows whole seconds. */
const TICK_MS = 1000;

/**
 * `claude rate-limited: waiting 42s` while fixcycle waits out an agent's rate limit, ticking each second;
 * null otherwise (and then no timer runs).
 */
export function useWaitCountdown(): string | null {
  const waiting = useSession((s) => s.waiting);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    setNow(Date.now());
    if (!waiting) return;
    const timer = setInterval(() => setNow(Date.now()), TICK_MS);
    return () => clearInterval(timer);
  }, [waiting]);
  if (!waiting) return null;
  const left = Math.max(0, Math.ceil((waiting.untilMs - now) / 1000));
  const shown = left >= 60 ? `${Math.floor(left / 60)}m ${String(left % 60).padStart(2, '0')}s` : `${left}s`;
  return `${waiting.agent} rate-limited: waiting ${shown}`;
}
