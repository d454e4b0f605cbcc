import { useEffect, useState } from 'react';
import { useStdout } from 'ink';

/** The terminal's size in cells. */
export interface TerminalSize {
  columns: number;
  rows: number;
}

/** 80x24: what a terminal is assumed to be when stdout does not say (a pipe, a test stream). */
const FALLBACK: TerminalSize = { columns: 80, rows: 24 };

function read(stdout: NodeJS.WriteStream): TerminalSize {
  return { columns: stdout.columns || FALLBACK.columns, rows: stdout.rows || FALLBACK.rows };
}

/** The terminal's size, tracked from stdout's `resize` event (Ink 6 does not tell its children). */
export function useTerminalSize(): TerminalSize {
  const { stdout } = useStdout();
  const [size, setSize] = useState(() => read(stdout));
  useEffect(() => {
    const onResize = () => {
      const next = read(stdout);
      setSize((prev) => (prev.columns === next.columns && prev.rows === next.rows ? prev : next));
    };
    onResize();
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout]);
  return size;
}
