/** The two terminals every component is checked on: a full screen and a narrow tmux pane. */
export const SIZES = [
  { columns: 120, rows: 40, name: '120x40' },
  { columns: 60, rows: 20, name: '60x20' },
] as const;
