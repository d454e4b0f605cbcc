import { open, stat } from 'node:fs/promises';
import { LineSplitter } from '../engine/process/line-splitter.js';

/** 1 MiB: on opening a long log, only its end matters; the pane keeps a few thousand lines anyway. */
const INITIAL_TAIL_BYTES = 1024 * 1024;
/** 4 MiB: what one read takes at most, so a burst of output is read in a few passes, not one huge buffer. */
const CHUNK_BYTES = 4 * 1024 * 1024;

/** What a read of the file found. */
export interface TailRead {
  lines: string[];
  /** True when the file got shorter than what was read: it was rewritten, the lines start over. */
  reset: boolean;
}

/** Follows a growing text file (test-output.log), returning the whole lines added since the last read. */
export class FileTail {
  private offset: number | null = null;
  private splitter = new LineSplitter();
  private skipPartial = false;

  constructor(readonly path: string) {}

  /** The lines added since the last call; an absent file reads as no lines. */
  async read(): Promise<TailRead> {
    const info = await stat(this.path).catch(() => null);
    if (!info) return { lines: [], reset: false };
    let reset = false;
    if (this.offset === null) {
      this.offset = Math.max(0, info.size - INITIAL_TAIL_BYTES);
      this.skipPartial = this.offset > 0;
    } else if (info.size < this.offset) {
      this.offset = 0;
      this.splitter = new LineSplitter();
      reset = true;
    }
    if (info.size === this.offset) return { lines: [], reset };
    const handle = await open(this.path, 'r');
    const lines: string[] = [];
    try {
      while (this.offset < info.size) {
        const length = Math.min(CHUNK_BYTES, info.size - this.offset);
        const buffer = Buffer.alloc(length);
        const { bytesRead } = await handle.read(buffer, 0, length, this.offset);
        if (bytesRead === 0) break;
        this.offset += bytesRead;
        for (const line of this.splitter.push(buffer.subarray(0, bytesRead))) lines.push(line);
      }
    } finally {
      await handle.close();
    }
    // Started mid-file: the first line is the end of one that began before the window.
    if (this.skipPartial && lines.length > 0) {
      lines.shift();
      this.skipPartial = false;
    }
    return { lines, reset };
  }
}
