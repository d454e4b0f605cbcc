import { useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useSession, useUi } from './context.js';
import { failureDetailLines } from './failure-detail-lines.js';
import { groupFailures } from './failure-groups.js';
import { currentFailures } from './failure-lines.js';
import type { DetailLine } from './iteration-detail-loader.js';
import { latestFailuresLines } from './latest-failures-lines.js';

// No failure id holds a NUL: the key of the view of every latest failure.
const ALL = '\0all';

/**
 * The failure group opened with enter, or every latest failure opened with `v`, as the view's title and lines at
 * `width`; null while none is open.
 */
export function useFailureDetail(width: number): { title: string; lines: DetailLine[] } | null {
  const open = useUi((s) => (s.failureDetail ? (s.failureDetail.failureId ?? ALL) : null));
  const { failures, errors } = useSession(useShallow((s) => currentFailures(s)));
  const stuck = useSession((s) => s.stuckTests);
  const suspects = useSession((s) => s.suspects);
  const localization = useSession((s) => s.localization);
  const root = useSession((s) => s.repo);
  return useMemo(() => {
    if (open === null) return null;
    if (open === ALL) {
      const count = failures.length + errors.length;
      return {
        title: `Latest failures · ${count === 0 ? 'none' : count}`,
        lines: latestFailuresLines(failures, errors, stuck, width),
      };
    }
    const groups = groupFailures(failures);
    const index = groups.findIndex((g) => g.failures.some((f) => f.id === open));
    const group = groups[index] ?? null;
    const title = group ? `Failure group ${index + 1} of ${groups.length}` : 'Failure group';
    return {
      title,
      lines: failureDetailLines({ group, allFailures: failures.length, stuck, suspects, localization, root, width }),
    };
  }, [open, failures, errors, stuck, suspects, localization, root, width]);
}
