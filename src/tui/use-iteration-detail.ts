import { useEffect, useMemo, useState } from 'react';
import { useSession, useUi } from './context.js';
import { fitDetailLines, loadIterationDetail, type DetailLine } from './iteration-detail-loader.js';

/**
 * The lines of the iteration opened with enter, fitted to `width` columns (prose wrapped at words, diff lines ended
 * with `…`): null while nothing is open, a "reading" line while it loads.
 */
export function useIterationDetail(width: number): DetailLine[] | null {
  const iteration = useUi((s) => s.detail?.iteration ?? null);
  const diffOnly = useUi((s) => s.detail?.diffOnly === true);
  const sessionDir = useSession((s) => s.sessionDir);
  const repo = useSession((s) => s.repo);
  const state = useSession((s) => s.state);
  const [loaded, setLoaded] = useState<{ iteration: number; diffOnly: boolean; lines: DetailLine[] } | null>(null);

  const entry = iteration === null ? undefined : state?.iterations.find((it) => it.iteration === iteration);
  // Reload when the iteration gains its commit or result, not on every state write.
  const key = entry ? `${entry.commit ?? ''}|${entry.result ?? ''}|${entry.rollback_commit ?? ''}` : '';

  useEffect(() => {
    if (iteration === null) return;
    if (!sessionDir) {
      setLoaded({
        iteration,
        diffOnly,
        lines: [{ text: 'No session folder yet: the iteration has nothing on disk to show' }],
      });
      return;
    }
    let current = true;
    loadIterationDetail({ sessionDir, repo, iteration, entry, diffOnly })
      .then((lines) => current && setLoaded({ iteration, diffOnly, lines }))
      .catch(
        (error: Error) =>
          current &&
          setLoaded({ iteration, diffOnly, lines: [{ text: `Cannot read iteration ${iteration}: ${error.message}` }] }),
      );
    return () => {
      current = false;
    };
    // `entry` is read through `key`: a new state object with the same commit must not reload.
  }, [iteration, diffOnly, sessionDir, repo, key]);

  const fitted = useMemo(() => (loaded ? fitDetailLines(loaded.lines, width) : null), [loaded, width]);
  if (iteration === null) return null;
  return loaded?.iteration === iteration && loaded.diffOnly === diffOnly && fitted
    ? fitted
    : [{ text: `Reading iteration ${iteration}…` }];
}
