/** How many rows each part of the screen gets; computed, not measured, so panes know their height before drawing. */
export interface Layout {
  /** Below 80 columns or 20 rows: one column, the phase tree folded into two lines. */
  compact: boolean;
  width: number;
  /** Rows of the root box: one less than the terminal, so Ink 6 never clears and redraws the whole screen. */
  height: number;
  /** Rows of the phase tree, its title included (compact: the two folded lines). */
  phaseHeight: number;
  /** Columns of the phase tree (wide) beside the failures view. */
  phaseWidth: number;
  /** Rows of the failures view beside the phase tree, title excluded (0 in compact). */
  sideFailuresHeight: number;
  /** Iteration rows the table shows (its title and header excluded). */
  iterationRows: number;
  /** Rows of the iterations block: title, column header, rows. */
  iterationsHeight: number;
  /** Rows of the engine's log line (wide only). */
  logHeight: number;
  /** Rows the banners take (approval, done, question). */
  bannerHeight: number;
  /** Lines of output shown, title excluded. */
  outputHeight: number;
  /** Rows between the header and the status line, for help and the iteration view. */
  bodyHeight: number;
}

const HEADER = 1;
const STATUS = 1;
/** Phase tree: title, test run, iteration, analysis, fix, re-test, final validation, completion. */
const PHASE_TREE = 8;

function clamp(value: number, min: number, max: number): number {
  return Math.max(min, Math.min(max, value));
}

/**
 * The rows and columns each part gets on a terminal of this size, with these banners shown and this
 * many iterations so far (the table grows with them, up to a share of the height; the output gets the rest).
 */
export function computeLayout(
  columns: number,
  rows: number,
  bannerHeight: number,
  iterations = 0,
  genRows = 0,
): Layout {
  const width = Math.max(20, columns);
  const height = Math.max(6, rows - 1);
  const bodyHeight = Math.max(1, height - HEADER - STATUS - bannerHeight);
  const wide = width >= 80 && height >= 19;
  if (wide) {
    const iterationRows = clamp(iterations, 2, clamp(Math.floor((height - 10 - bannerHeight) / 4), 2, 8));
    const iterationsHeight = 2 + iterationRows;
    // `fixcycle gen` adds its phases above the loop's; they take rows from the output, which keeps at least 3.
    const extra = Math.max(0, Math.min(genRows, bodyHeight - PHASE_TREE - iterationsHeight - 2 - 3));
    const outputHeight = Math.max(1, bodyHeight - PHASE_TREE - extra - iterationsHeight - 1 - 1);
    return {
      compact: false,
      width,
      height,
      phaseHeight: PHASE_TREE + extra,
      phaseWidth: clamp(Math.floor(width * 0.5), 40, 72),
      sideFailuresHeight: PHASE_TREE - 1,
      iterationRows,
      iterationsHeight,
      logHeight: 1,
      bannerHeight,
      outputHeight,
      bodyHeight,
    };
  }
  // Compact: the badge (header), the current iteration (2 lines), a few iteration rows, the output.
  const iterationRows = height >= 23 ? 3 : height >= 14 ? 2 : 0;
  const iterationsHeight = iterationRows > 0 ? iterationRows + 1 : 0;
  const phaseHeight = height >= 10 ? 2 : 1;
  const outputHeight = Math.max(1, bodyHeight - phaseHeight - iterationsHeight - 1);
  return {
    compact: true,
    width,
    height,
    phaseHeight,
    phaseWidth: width,
    sideFailuresHeight: 0,
    iterationRows,
    iterationsHeight,
    logHeight: 0,
    bannerHeight,
    outputHeight,
    bodyHeight,
  };
}
