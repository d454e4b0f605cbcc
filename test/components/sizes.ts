/** The two terminals every component is checked on: a full screen and a narrow tmux pane. */
export const SIZES = [
  { columns: 120, rows: 40, name: '120x40' },
  { columns: 60, rows: 20, name: '60x20' },
] as const;

/** Narrow panes down to the narrowest fixcycle supports: the footer's `? help · q quit` must survive each. */
export const NARROW_SIZES = [
  { columns: 60, rows: 20, name: '60x20' },
  { columns: 50, rows: 16, name: '50x16' },
  { columns: 40, rows: 12, name: '40x12' },
] as const;
