import { useShallow } from 'zustand/react/shallow';
import { formatUsage } from '../engine/agents/activity-line.js';
import { isWorking } from './activity.js';
import { useSession } from './context.js';
import { formatDuration } from './iteration-rows.js';
import { useNow } from './use-now.js';

/**
 * `iteration 2/10 41s · 12,300 tokens · $0.41/$2`: where the loop is against its max iterations (which `+`/`-`
 * change), how long the current iteration has run, and what the agents reported spending, against `--budget`'s
 * dollars when given. Empty before the first iteration; no clock once the iteration is done. `compact` keeps the
 * iteration and its clock.
 */
export function useIterationClock(compact = false): string {
  const view = useSession(
    useShallow((s) => {
      const last = s.state?.iterations.at(-1);
      const running = last && !last.completed_at && !s.done ? last : undefined;
      let tokens: number | undefined;
      let cost: number | undefined;
      for (const u of Object.values(s.usage)) {
        if (u.tokens !== undefined) tokens = (tokens ?? 0) + u.tokens;
        if (u.costUsd !== undefined) cost = (cost ?? 0) + u.costUsd;
      }
      return {
        current: s.state?.current_iteration ?? 0,
        max: s.state?.max_iterations,
        startedAt: running?.started_at ? Date.parse(running.started_at) : NaN,
        tokens,
        cost,
        usd: s.budget?.usd,
      };
    }),
  );
  const working = useSession(isWorking);
  const now = useNow(working && Number.isFinite(view.startedAt));
  if (view.max === undefined || view.current === 0) return '';
  const clock = Number.isFinite(view.startedAt) ? ` ${formatDuration(Math.max(1000, now - view.startedAt))}` : '';
  const iteration = `iteration ${view.current}/${view.max}${clock}`;
  if (compact) return iteration;
  const tokens = formatUsage(view.tokens, undefined);
  let cost = '';
  if (view.cost !== undefined || view.usd !== undefined) {
    cost = formatUsage(undefined, view.cost ?? 0);
    if (view.usd !== undefined) cost += `/$${view.usd}`;
  }
  return [iteration, tokens, cost].filter(Boolean).join(' · ');
}
