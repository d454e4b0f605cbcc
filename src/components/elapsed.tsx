import { Text } from 'ink';
import { useNow } from '../tui/use-now.js';
import { isWorking } from '../tui/activity.js';
import { useSession } from '../tui/context.js';
import { formatDuration } from '../tui/iteration-rows.js';

/**
 * Time since the session started, from the session's own times: until its last write once it has ended. It ticks only
 * while a step runs, so an idle screen has no timer.
 */
export function Elapsed() {
  const startedAt = useSession((s) => s.startedAt);
  const working = useSession(isWorking);
  // An ended session's clock stops at its own last write, not at when someone looks at it.
  const endedAt = useSession((s) => (s.done && s.state ? Date.parse(s.state.updated_at) : NaN));
  const now = useNow(working);
  const ms = (Number.isFinite(endedAt) && endedAt >= startedAt ? endedAt : now) - startedAt;
  return <Text>{ms < 1000 ? '0s' : formatDuration(ms)}</Text>;
}
