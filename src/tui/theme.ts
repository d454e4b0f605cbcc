import type { PhaseStatus } from '../engine/events.js';
import type { Strategy } from '../engine/types.js';

/** A color name Ink understands, or undefined for the terminal's own. */
export type Color = string | undefined;

/**
 * Colors and marks of the screen. Every meaning is carried by a mark or a word too, so the
 * screen reads the same without color (NO_COLOR, monochrome terminals).
 */
export interface Theme {
  /** False when NO_COLOR is set: every color below is undefined and lines from the runner lose theirs. */
  color: boolean;
  strategy: Record<Strategy, Color>;
  status: Record<PhaseStatus, Color>;
  /** Marks before a step; `running` is drawn by the spinner instead. */
  mark: Record<Exclude<PhaseStatus, 'running'>, string>;
  good: Color;
  bad: Color;
  warn: Color;
  accent: Color;
  /** Frames of the spinner of a running step. */
  spinner: readonly string[];
}

const COLORED: Omit<Theme, 'color'> = {
  strategy: { conservative: 'blue', aggressive: 'yellow', surgical: 'magenta' },
  status: { pending: undefined, running: 'cyan', done: 'green', failed: 'red', skipped: 'gray' },
  mark: { pending: '○', done: '✓', failed: '✗', skipped: '–' },
  good: 'green',
  bad: 'red',
  warn: 'yellow',
  accent: 'cyan',
  spinner: ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'],
};

/** The theme for an environment: monochrome when NO_COLOR is set to anything but the empty string. */
export function createTheme(env: NodeJS.ProcessEnv = process.env): Theme {
  const noColor = env['NO_COLOR'] !== undefined && env['NO_COLOR'] !== '';
  if (!noColor) return { color: true, ...COLORED };
  const none = <K extends string>(record: Record<K, Color>): Record<K, Color> =>
    Object.fromEntries(Object.keys(record).map((k) => [k, undefined])) as Record<K, Color>;
  return {
    ...COLORED,
    color: false,
    strategy: none(COLORED.strategy),
    status: none(COLORED.status),
    good: undefined,
    bad: undefined,
    warn: undefined,
    accent: undefined,
  };
}
