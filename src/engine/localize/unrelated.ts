import type { Failure } from '../types.js';

// What runners print for a test stopped by its time limit: mocha's `Timeout of 2000ms exceeded`, jest's
// `Exceeded timeout of 5000 ms`, vitest's `Test timed out in 5000ms`, libtest's `test timed out`, node:test's
// `test timed out after 100ms`. A hint, read from the runner's own message.
const TIMEOUT = /\btimed out\b|\btimeout of \d+ ?ms exceeded|\bexceeded timeout of \d+ ?ms/i;

/**
 * The failures that belong to one failing unit: a test stopped by its time limit on a loaded machine says
 * nothing about where the others' fault is, so timeouts are left out when other failures remain. The left-out
 * ones, to say so.
 */
export function relatedFailures(failures: readonly Failure[]): { related: Failure[]; timeouts: Failure[] } {
  const timeouts = failures.filter((f) => TIMEOUT.test(f.message));
  if (timeouts.length === 0 || timeouts.length === failures.length) return { related: [...failures], timeouts: [] };
  return { related: failures.filter((f) => !timeouts.includes(f)), timeouts };
}
