import stringWidth from 'string-width';

/**
 * Ink 6 writes every frame whole: it erases the lines of the last frame and writes all of the new one, so a spinner
 * tick on a 120x40 screen costs about 2 KB. This stream wrapper compares each frame with the last one and, when only
 * a line or two changed (the spinner, the clock), writes just the changed part of those lines, then puts the cursor
 * back where Ink left it. Frames that change more lines pass through whole, so anything a terminal got wrong heals
 * at the next real change. (Ink's own incrementalRendering never writes a whole frame again, and a line the terminal
 * measures wider than Ink does then shifts the screen for good.)
 */

// eslint-disable-next-line no-control-regex
const ERASE_PREFIX = /^(?:\x1b\[2K\x1b\[1A)*\x1b\[2K\x1b\[G/;
// eslint-disable-next-line no-control-regex
const ESCAPE = /\x1b\[[0-9;?]*[ -/]*[@-~]/y;
/** More changed lines than this and the frame is written whole: a real change, not time passing. */
const MAX_PATCHED_LINES = 2;

/** SGR groups a code opens (a later closer or reset ends it). */
function sgrGroup(code: number): string | null {
  if (code === 1 || code === 2) return 'intensity';
  if (code === 3) return 'italic';
  if (code === 4) return 'underline';
  if (code === 7) return 'inverse';
  if (code === 9) return 'strike';
  if ((code >= 30 && code <= 38) || (code >= 90 && code <= 97)) return 'fg';
  if ((code >= 40 && code <= 48) || (code >= 100 && code <= 107)) return 'bg';
  return null;
}
const CLOSERS: Record<number, string> = { 22: 'intensity', 23: 'italic', 24: 'underline', 27: 'inverse', 29: 'strike' };
CLOSERS[39] = 'fg';
CLOSERS[49] = 'bg';

/**
 * Where in `line` a rewrite may start so that it ends as `line` does: the start of the escape sequences right before
 * the first character that differs from `old`, if no style is open there; else 0 (the whole line).
 */
export function patchStart(old: string, line: string): number {
  let differ = 0;
  while (differ < old.length && differ < line.length && old[differ] === line[differ]) differ++;
  let at = 0;
  let cut = 0;
  const open = new Set<string>();
  while (at < differ) {
    ESCAPE.lastIndex = at;
    const match = ESCAPE.exec(line);
    if (match) {
      if (match[0].endsWith('m')) {
        if (open.size === 0 && at > cut) cut = at;
        const codes = match[0].slice(2, -1).split(';').map(Number);
        for (let i = 0; i < codes.length; i++) {
          const code = codes[i]!;
          if (code === 0 || match[0] === '\x1b[m') open.clear();
          else if (CLOSERS[code]) open.delete(CLOSERS[code]!);
          else {
            const group = sgrGroup(code);
            if (group) open.add(group);
            // 38;5;n and 38;2;r;g;b carry their color in the codes that follow.
            if (code === 38 || code === 48) i += codes[i + 1] === 5 ? 2 : 4;
          }
        }
      }
      at += match[0].length;
      // After an escape that leaves no style open, the change can start right here, unstyled.
      if (match[0].endsWith('m') && open.size === 0) cut = at;
      continue;
    }
    at++;
    if (open.size === 0) cut = at;
  }
  // The cut is only ever where no style is open: the escapes from there to the change are rewritten with it.
  return Math.min(cut, differ);
}

/** What to write instead of a whole frame whose lines are `next` after `previous` (same count), or null to write it whole. */
export function patchFrame(previous: readonly string[], next: readonly string[]): string | null {
  if (previous.length !== next.length) return null;
  const changed: number[] = [];
  for (let i = 0; i < next.length; i++) if (previous[i] !== next[i]) changed.push(i);
  if (changed.length > MAX_PATCHED_LINES) return null;
  if (changed.length === 0) return '';
  const last = next.length - 1;
  // Save the cursor (Ink's next frame erases upwards from it), patch each line relative to it, restore it.
  let out = '\x1b7';
  for (const [n, i] of changed.entries()) {
    const old = previous[i]!;
    const line = next[i]!;
    const start = patchStart(old, line);
    const column = stringWidth(line.slice(0, start)) + 1;
    const erase = stringWidth(old) > stringWidth(line) ? '\x1b[K' : '';
    out += `${n > 0 ? '\x1b8' : ''}${last > i ? `\x1b[${last - i}A` : ''}\x1b[${column}G${line.slice(start)}${erase}`;
  }
  return `${out}\x1b8`;
}

/** `stdout` writing patched frames when only a line or two changed; everything else (columns, resize) as is. */
export function writeChangedLines(stdout: NodeJS.WriteStream): NodeJS.WriteStream {
  let previous: string[] | null = null;
  const write = (chunk: unknown, ...rest: unknown[]): boolean => {
    const pass = () => (stdout.write as (...args: unknown[]) => boolean)(chunk, ...rest);
    if (typeof chunk !== 'string') return pass();
    const prefix = ERASE_PREFIX.exec(chunk);
    if (!prefix) return pass();
    const erased = prefix[0].split('\x1b[2K').length - 1;
    const lines = chunk.slice(prefix[0].length).split('\n');
    const patch = previous && erased === previous.length ? patchFrame(previous, lines) : null;
    previous = lines;
    if (patch === null) return pass();
    if (patch === '') return true;
    const done = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
    return stdout.write(patch, done);
  };
  return new Proxy(stdout, {
    get(target, property) {
      if (property === 'write') return write;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
