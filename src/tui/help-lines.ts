import { KEY_BINDINGS } from './key-bindings.js';
import type { Theme } from './theme.js';

/** The help overlay's lines: every key of the table with what it does, then what the marks mean. */
export function helpLines(theme: Theme): string[] {
  const width = Math.max(...KEY_BINDINGS.map((b) => b.label.length)) + 2;
  return [
    ...KEY_BINDINGS.map((b) => `${b.label.padEnd(width)}${b.description}`),
    '',
    `${theme.mark.pending} pending  ${theme.spinner[0]} running  ‖ paused  ? awaiting approval  ${theme.mark.done} done  ${theme.mark.failed} failed  ${theme.mark.skipped} skipped`,
    'Strategies: [conservative] small, safe fixes · [aggressive] one fix for many similar failures · [surgical] after a regression, the narrowest fix',
  ];
}
