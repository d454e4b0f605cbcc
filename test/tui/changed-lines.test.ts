// A frame where only the spinner or the clock changed is written as those lines alone, and the terminal then shows
// exactly what the whole frame would have shown: checked in a headless xterm.
import { describe, expect, it } from 'vitest';
import xterm from '@xterm/headless';
import { patchFrame } from '../../src/tui/changed-lines.js';

const COLUMNS = 40;

async function screenAfter(...writes: string[]): Promise<string> {
  const term = new xterm.Terminal({ cols: COLUMNS, rows: 8, allowProposedApi: true, scrollback: 0 });
  // A pty turns \n into \r\n (onlcr): the headless terminal gets what a real one would.
  for (const w of writes) await new Promise<void>((r) => term.write(w.replace(/\n/g, '\r\n'), r));
  const b = term.buffer.active;
  const rows = Array.from({ length: 8 }, (_, i) => b.getLine(i)!.translateToString(true));
  // The cursor's row is what Ink's next frame starts from (it moves up from there, then to column 1).
  return `${rows.join('\n')}\ncursor row ${b.cursorY}`;
}

// As Ink writes a frame: erase the last frame's lines upwards, then the new one.
const erase = (count: number) => `${'\x1b[2K\x1b[1A'.repeat(count - 1)}\x1b[2K\x1b[G`;
const frame = (spin: string, clock: string) => [
  'fixcycle  WFS-test-x',
  `    \x1b[36m${spin}\x1b[39m \x1b[1mAnalysis\x1b[22m`,
  '    ○ Fix',
  'x'.repeat(COLUMNS),
  `\x1b[2mWFS-test-x · \x1b[22m${clock} │ \x1b[1m?\x1b[22m help`,
];

describe('patched frames', () => {
  for (const [name, a, b] of [
    ['a spinner tick', frame('⠋', '9s'), frame('⠙', '9s')],
    ['a clock tick that widens the line', frame('⠋', '59s'), frame('⠋', '1m 0s')],
    ['both, and a narrower line', frame('⠋', '1m 0s'), frame('⠙', '9s')],
  ] as const) {
    it(`shows what the whole frame shows after ${name}`, async () => {
      const whole = await screenAfter(a.join('\n'), erase(a.length) + b.join('\n'));
      const patch = patchFrame(a, b);
      expect(patch).not.toBeNull();
      expect(patch!.length).toBeLessThan(b.join('\n').length / 2);
      expect(await screenAfter(a.join('\n'), patch!)).toBe(whole);
    });
  }

  it('writes nothing when nothing changed, and the whole frame when more than two lines did', () => {
    expect(patchFrame(frame('⠋', '9s'), frame('⠋', '9s'))).toBe('');
    const moved = frame('⠋', '9s').map((l) => `${l} `);
    expect(patchFrame(frame('⠋', '9s'), moved)).toBeNull();
  });
});
