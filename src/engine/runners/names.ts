/** The runners fixcycle knows how to drive (`tap` is node-tap); `command` is a plain --test-cmd it cannot see into. */
export const RUNNER_NAMES = [
  'vitest',
  'jest',
  'mocha',
  'tape',
  'tap',
  'ava',
  'uvu',
  'node-test',
  'pytest',
  'go',
  'cargo',
  'command',
] as const;

/** A runner fixcycle knows by name. */
export type RunnerName = (typeof RUNNER_NAMES)[number];

export function isRunnerName(name: string): name is RunnerName {
  return (RUNNER_NAMES as readonly string[]).includes(name);
}

/** Thrown when no runner can be resolved; the message is one line naming the cause and the fix. */
export class RunnerResolutionError extends Error {
  override readonly name = 'RunnerResolutionError';
}
