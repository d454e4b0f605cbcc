import type { CoverageData } from '../coverage/model.js';
import type { MutantRunOptions } from './run-mutants.js';

/**
 * Which mutant lines the tests reach, from the gate's coverage runs: `reachedByNew` holds the `<file>:<line>` the
 * new tests ran, `before` the suite's coverage before generation. A line the coverage tool does not count (no
 * entry before: not executable to it) is unknown, and its mutants run. Undefined when nothing was measured.
 */
export function mutantReach(
  reachedByNew: ReadonlySet<string>,
  before: CoverageData | null,
): MutantRunOptions['reach'] | undefined {
  if (!before || reachedByNew.size === 0) return undefined;
  const hitsBefore = (key: string): number | undefined => {
    const at = key.lastIndexOf(':');
    return before[key.slice(0, at)]?.lines[Number(key.slice(at + 1))];
  };
  return {
    newTests: (key) => (hitsBefore(key) === undefined ? null : reachedByNew.has(key)),
    existing: (key) => {
      const hits = hitsBefore(key);
      return hits === undefined ? null : hits > 0;
    },
  };
}
