import { MAX_ITERATIONS_ALLOWED } from '../config-schema.js';
import type { LoopRun } from './loop-run.js';

/**
 * The user's `+`/`-` while the loop runs: one iteration more or fewer, never below the iteration running (or done),
 * never above the 100 the configuration allows. Saved at once, so the session and every screen agree. Returns why
 * not, or null when changed.
 */
export function changeMaxIterations(r: LoopRun, delta: 1 | -1): string | null {
  const { state, ctx } = r;
  if (state.next_action === 'complete') return 'the session has ended: --max-iterations on a resume gives it more';
  const next = state.max_iterations + delta;
  const floor = Math.max(1, state.current_iteration);
  if (next < floor)
    return `iteration ${state.current_iteration} has started: the loop cannot stop before it (q stops it now)`;
  if (next > MAX_ITERATIONS_ALLOWED) return `${MAX_ITERATIONS_ALLOWED} iterations at most`;
  state.max_iterations = next;
  void r
    .save()
    .catch((error: Error) =>
      ctx.emit({ type: 'log', level: 'warn', message: `cannot save the new max iterations: ${error.message}` }),
    );
  ctx.emit({
    type: 'log',
    level: 'info',
    message: `max iterations: ${next} (${delta > 0 ? 'one more' : 'one fewer'})`,
  });
  return null;
}
