import { useEffect, useState } from 'react';

/** 1 s: every clock on screen shows whole seconds. */
const TICK_MS = 1000;

/**
 * The time now, taken again each second while `ticking` (a step runs, a wait counts down), and once when it
 * stops: an idle screen has no timer.
 */
export function useNow(ticking: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    setNow(Date.now());
    if (!ticking) return;
    const timer = setInterval(() => setNow(Date.now()), TICK_MS);
    return () => clearInterval(timer);
  }, [ticking]);
  return now;
}
