/**
 * A fixed-size buffer of the most recent lines. The output pane reads from it directly;
 * React only sees a version number, so a flood of lines costs no re-render per line.
 */
export class RingBuffer {
  private readonly lines: string[];
  private start = 0;
  private count = 0;
  /** Lines pushed since creation, including those that fell out. */
  total = 0;

  constructor(readonly capacity: number) {
    this.lines = new Array<string>(capacity);
  }

  get size(): number {
    return this.count;
  }

  push(line: string): void {
    const end = (this.start + this.count) % this.capacity;
    this.lines[end] = line;
    if (this.count < this.capacity) this.count++;
    else this.start = (this.start + 1) % this.capacity;
    this.total++;
  }

  pushAll(lines: readonly string[]): void {
    for (const line of lines) this.push(line);
  }

  /** Line `index` counted from the oldest kept line. */
  at(index: number): string | undefined {
    if (index < 0 || index >= this.count) return undefined;
    return this.lines[(this.start + index) % this.capacity];
  }

  /** Up to `length` lines from `from` (oldest kept line is 0). */
  slice(from: number, length: number): string[] {
    const out: string[] = [];
    const end = Math.min(this.count, from + length);
    for (let i = Math.max(0, from); i < end; i++) out.push(this.lines[(this.start + i) % this.capacity]!);
    return out;
  }

  clear(): void {
    this.start = 0;
    this.count = 0;
  }
}
