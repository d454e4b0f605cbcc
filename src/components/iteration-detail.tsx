import type { DetailLine } from '../tui/iteration-detail-loader.js';
import { useUi } from '../tui/context.js';
import { DetailPanel } from './detail-panel.js';

/** Props of the iteration view. */
export interface IterationDetailProps {
  /** The loaded lines: analysis, fix plan, commit's diff summary. */
  lines: readonly DetailLine[];
  width: number;
  /** Rows, the title included. */
  height: number;
}

/** One iteration opened with enter: its analysis, fix plan and the files its commit changed; j/k scroll, esc closes. */
export function IterationDetail({ lines, width, height }: IterationDetailProps) {
  const detail = useUi((s) => s.detail);
  if (!detail) return null;
  return (
    <DetailPanel
      title={`Iteration ${detail.iteration}${detail.diffOnly ? ' · fix diff' : ''}`}
      lines={lines}
      top={detail.top}
      width={width}
      height={height}
    />
  );
}
