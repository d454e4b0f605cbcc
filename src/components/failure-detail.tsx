import { useUi } from '../tui/context.js';
import type { DetailLine } from '../tui/iteration-detail-loader.js';
import { DetailPanel } from './detail-panel.js';

/** A failure group opened with enter: its message, tests and suspects with their evidence; j/k scroll, esc or enter closes. */
export function FailureDetail({
  title,
  lines,
  width,
  height,
}: {
  title: string;
  lines: readonly DetailLine[];
  width: number;
  /** Rows, the title included. */ height: number;
}) {
  const top = useUi((s) => s.failureDetail?.top ?? 0);
  return <DetailPanel title={title} lines={lines} top={top} width={width} height={height} />;
}
