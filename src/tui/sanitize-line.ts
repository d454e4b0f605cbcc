/** How a line of test output is made safe to draw in a pane. */
export interface SanitizeOptions {
  /** Keep the runner's SGR colors. Default: true (false under NO_COLOR). */
  color?: boolean;
  /**
   * Stop after this many printable characters: a pane never shows more than its width, and
   * truncating a 100 KB line each frame is what would cost. Default: no limit.
   */
  maxChars?: number;
}

const ESC = 0x1b;
const BEL = 0x07;

/**
 * Makes a line of runner output safe for a pane: keeps what a `\r` redraw left last, expands tabs,
 * drops cursor movement, screen clearing, OSC titles and other control characters (any of which would
 * tear the layout), and keeps only color sequences when asked.
 */
export function sanitizeLine(line: string, options: SanitizeOptions = {}): string {
  const keepColor = options.color ?? true;
  const max = options.maxChars ?? Number.POSITIVE_INFINITY;
  const trimmed = line.endsWith('\r') ? line.slice(0, -1) : line;
  const lastReturn = trimmed.lastIndexOf('\r');
  const text = lastReturn === -1 ? trimmed : trimmed.slice(lastReturn + 1);

  let out = '';
  let column = 0;
  let colored = false;
  for (let i = 0; i < text.length && column < max; i++) {
    const code = text.charCodeAt(i);
    if (code === ESC) {
      const next = text[i + 1];
      if (next === '[') {
        let j = i + 2;
        while (j < text.length && !(text.charCodeAt(j) >= 0x40 && text.charCodeAt(j) <= 0x7e)) j++;
        if (keepColor && text[j] === 'm') {
          out += text.slice(i, j + 1);
          colored = true;
        }
        i = j;
      } else if (next === ']') {
        let j = i + 2;
        while (j < text.length && text.charCodeAt(j) !== BEL && !(text.charCodeAt(j) === ESC && text[j + 1] === '\\'))
          j++;
        i = text.charCodeAt(j) === ESC ? j + 1 : j;
      } else {
        i++;
      }
      continue;
    }
    if (code === 0x09) {
      const spaces = 8 - (column % 8);
      out += ' '.repeat(spaces);
      column += spaces;
      continue;
    }
    if (code < 0x20 || code === 0x7f || (code >= 0x80 && code < 0xa0)) continue;
    out += text[i];
    column++;
  }
  return colored ? out + '\x1b[0m' : out;
}

/** The line without any escape sequence, for matching. */
export function plainText(line: string): string {
  return sanitizeLine(line, { color: false });
}

// Words runners print on a failing test or a crash: vitest/jest FAIL and ×, TAP `not ok`, mocha's failing, Node's errors.
const FAILURE_LINE = /(\bFAIL(?:ED)?\b|\bnot ok\b|\bfailing\b|[✗✖×]|\b\w*Error\b|\bERR!)/;

/** True when a line of output reports a failure, so the pane can highlight it. */
export function isFailureLine(line: string): boolean {
  return FAILURE_LINE.test(line);
}
