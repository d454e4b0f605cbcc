/** A test failing after this many iterations in a row is stuck. */
export const STUCK_AFTER = 3;

/**
 * Tests that failed in each of the last `threshold` iterations.
 * Only iterations that were tested count; each entry lists the ids that failed after it.
 */
export function findStuckTests(failedPerIteration: readonly (readonly string[])[], threshold = STUCK_AFTER): string[] {
  if (failedPerIteration.length < threshold) return [];
  const recent = failedPerIteration.slice(-threshold);
  const [first, ...rest] = recent;
  const others = rest.map((ids) => new Set(ids));
  return [...new Set(first)].filter((id) => others.every((set) => set.has(id))).sort();
}

/** Share of the current failures that are stuck, 0-1. */
export function stuckShare(failing: readonly string[], stuck: readonly string[]): number {
  if (failing.length === 0) return 0;
  const set = new Set(stuck);
  return failing.filter((id) => set.has(id)).length / failing.length;
}
