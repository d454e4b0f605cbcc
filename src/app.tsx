import { useRef } from 'react';
import { Box } from 'ink';
import { useShallow } from 'zustand/react/shallow';
import { ApprovalBanner } from './components/approval-banner.js';
import { ConfirmPrompt } from './components/confirm-prompt.js';
import { DoneBanner } from './components/done-banner.js';
import { FailureDetail } from './components/failure-detail.js';
import { FailuresView } from './components/failures-view.js';
import { Header } from './components/header.js';
import { HelpOverlay } from './components/help-overlay.js';
import { IterationDetail } from './components/iteration-detail.js';
import { IterationTable } from './components/iteration-table.js';
import { LogLine } from './components/log-line.js';
import { OutputPane } from './components/output-pane.js';
import { PhaseTree } from './components/phase-tree.js';
import { PipelineChoicePanel } from './components/pipeline-choice.js';
import { StatusLine } from './components/status-line.js';
import { WaitingPanel } from './components/waiting-panel.js';
import { bannerFlags, bannerHeight } from './tui/banners.js';
import { useSession, useTui, useUi } from './tui/context.js';
import { computeLayout, type Layout } from './tui/layout.js';
import { genRowCount } from './components/gen-rows.js';
import { teamRowCount } from './components/team-rows.js';
import { useFailureDetail } from './tui/use-failure-detail.js';
import { useIterationDetail } from './tui/use-iteration-detail.js';
import { useKeyDispatcher, useLeaveWhenStopped, type PaneMetrics } from './tui/use-key-dispatcher.js';
import { useTerminalSize } from './tui/use-terminal-size.js';

/** Props of the whole screen. */
export interface AppProps {
  /** Called when the user leaves (q, or the loop ended after they asked it to stop). */
  onQuit: () => void;
}

function WideBody({ layout }: { layout: Layout }) {
  const focus = useUi((s) => s.focus);
  const sideWidth = layout.width - layout.phaseWidth - 1;
  return (
    <>
      <Box height={layout.phaseHeight} width={layout.width}>
        <PhaseTree width={layout.phaseWidth} />
        <Box width={1} />
        <FailuresView width={sideWidth} height={layout.sideFailuresHeight} focused={focus === 'failures'} />
      </Box>
      <Box height={layout.iterationsHeight} flexDirection="column">
        <IterationTable width={layout.width} rows={layout.iterationRows} focused={focus === 'iterations'} />
      </Box>
      <LogLine width={layout.width} />
      <OutputPane width={layout.width} height={layout.outputHeight} focused={focus === 'output'} />
    </>
  );
}

function CompactBody({ layout }: { layout: Layout }) {
  const focus = useUi((s) => s.focus);
  return (
    <>
      <Box height={layout.phaseHeight} flexDirection="column" overflow="hidden">
        <PhaseTree width={layout.width} compact />
      </Box>
      {layout.iterationRows > 0 ? (
        <Box height={layout.iterationsHeight} flexDirection="column">
          <IterationTable width={layout.width} rows={layout.iterationRows} focused={focus === 'iterations'} compact />
        </Box>
      ) : null}
      {focus === 'failures' ? (
        <FailuresView width={layout.width} height={layout.outputHeight} focused />
      ) : (
        <OutputPane width={layout.width} height={layout.outputHeight} focused={focus === 'output'} />
      )}
    </>
  );
}

/** The screen: header, body (or help, or an opened iteration or failure group), banners, status line. Keys go through one dispatcher. */
export function App({ onQuit }: AppProps) {
  const { columns, rows } = useTerminalSize();
  const bannerView = useSession(
    useShallow((s) => ({
      awaitingApproval: s.awaitingApproval,
      done: s.done,
      sessionId: s.sessionId,
      state: s.state,
      handback: s.handback,
    })),
  );
  const bannerUi = useUi(useShallow((s) => ({ confirm: s.confirm })));
  const banners = bannerFlags(bannerView, bannerUi);
  const { controls } = useTui();
  const iterations = useSession((s) => s.state?.iterations.length ?? 0);
  const genRows = useSession(
    (s) => genRowCount(s.gen, s.genCoverage) + teamRowCount(s.teamTasks, s.teamCoverage, s.teamBoard),
  );
  const layout = computeLayout(
    columns,
    rows,
    bannerHeight(banners, Math.max(20, columns), bannerView, bannerUi, controls),
    iterations,
    genRows,
  );
  const help = useUi((s) => s.help);
  const choosing = useSession((s) => s.teamChoice !== null);
  const following = Boolean(useTui().follow);
  const waiting = useSession((s) => s.sessionId === null) && following;
  const detailLines = useIterationDetail(layout.width);
  const failureDetail = useFailureDetail(layout.width);

  const metrics = useRef<PaneMetrics>(null!);
  metrics.current = {
    outputHeight: layout.outputHeight,
    failuresHeight: layout.compact ? layout.outputHeight : layout.sideFailuresHeight,
    iterationRows: Math.max(1, layout.iterationRows),
    overlayHeight: layout.bodyHeight,
    detailLines: (detailLines ?? failureDetail?.lines)?.length ?? 0,
  };
  useKeyDispatcher(metrics, onQuit);
  useLeaveWhenStopped(onQuit);

  return (
    <Box flexDirection="column" width={layout.width} height={layout.height} overflow="hidden">
      <Header width={layout.width} compact={layout.compact} />
      <Box flexDirection="column" height={layout.bodyHeight} overflow="hidden">
        {help ? (
          <HelpOverlay width={layout.width} height={layout.bodyHeight} />
        ) : detailLines ? (
          <IterationDetail lines={detailLines} width={layout.width} height={layout.bodyHeight} />
        ) : failureDetail ? (
          <FailureDetail
            title={failureDetail.title}
            lines={failureDetail.lines}
            width={layout.width}
            height={layout.bodyHeight}
          />
        ) : waiting ? (
          <WaitingPanel width={layout.width} height={layout.bodyHeight} />
        ) : choosing ? (
          <PipelineChoicePanel width={layout.width} height={layout.bodyHeight} />
        ) : layout.compact ? (
          <CompactBody layout={layout} />
        ) : (
          <WideBody layout={layout} />
        )}
      </Box>
      {banners.approval ? <ApprovalBanner width={layout.width} /> : null}
      {banners.done ? <DoneBanner width={layout.width} /> : null}
      {banners.confirm ? <ConfirmPrompt width={layout.width} /> : null}
      <StatusLine width={layout.width} compact={layout.compact} />
    </Box>
  );
}
