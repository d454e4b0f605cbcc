import { StringDecoder } from 'node:string_decoder';

// 64 KiB: a progress bar redrawn with \r and no newline must not grow one line without bound.
const MAX_LINE_CHARS = 64 * 1024;

/** Turns chunks of a byte stream into whole lines (UTF-8 safe, `\r\n` and `\n`), keeping the unfinished rest. */
export class LineSplitter {
  private readonly decoder = new StringDecoder('utf8');
  private rest = '';

  /** The lines completed by this chunk, without their line ends. */
  push(chunk: Buffer | string): string[] {
    const text = this.rest + (typeof chunk === 'string' ? chunk : this.decoder.write(chunk));
    const lines = text.split('\n');
    this.rest = lines.pop() ?? '';
    while (this.rest.length > MAX_LINE_CHARS) {
      lines.push(this.rest.slice(0, MAX_LINE_CHARS));
      this.rest = this.rest.slice(MAX_LINE_CHARS);
    }
    return lines.map(stripCarriageReturn);
  }

  /** The unfinished last line, if any, once the stream has ended. */
  flush(): string[] {
    const last = this.rest + this.decoder.end();
    this.rest = '';
    return last === '' ? [] : [stripCarriageReturn(last)];
  }
}

function stripCarriageReturn(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}
