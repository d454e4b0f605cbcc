import { useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useSession, useUi } from './context.js';
import { failureDetailLines } from './failure-detail-lines.js';
import { groupFailures } from './failure-groups.js';
import { currentFailures } from './failure-lines.js';
import type { DetailLine } from './iteration-detail-loader.js';

/** The failure group opened with enter, as its view's title and lines at `width`; null while none is open. */
export function useFailureDetail(width: number): { title: string; lines: DetailLine[] } | null {
  const failureId = useUi((s) => s.failureDetail?.failureId ?? null);
  const { failures } = useSession(useShallow((s) => currentFailures(s)));
  const stuck = useSession((s) => s.stuckTests);
  const suspects = useSession((s) => s.suspects);
  const localization = useSession((s) => s.localization);
  const root = useSession((s) => s.repo);
  return useMemo(() => {
    if (failureId === null) return null;
    const groups = groupFailures(failures);
    const index = groups.findIndex((g) => g.failures.some((f) => f.id === failureId));
    const group = groups[index] ?? null;
    const title = group ? `Failure group ${index + 1} of ${groups.length}` : 'Failure group';
    return {
      title,
      lines: failureDetailLines({ group, allFailures: failures.length, stuck, suspects, localization, root, width }),
    };
  }, [failureId, failures, stuck, suspects, localization, root, width]);
}
