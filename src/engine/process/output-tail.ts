/** Keeps the last `capacity` lines of an output, for error messages of runs that produced no usable report. */
export class OutputTail {
  private readonly lines: string[] = [];

  constructor(private readonly capacity: number) {}

  push(lines: readonly string[]): void {
    for (const line of lines) this.lines.push(line);
    if (this.lines.length > this.capacity) this.lines.splice(0, this.lines.length - this.capacity);
  }

  toString(): string {
    return this.lines.join('\n');
  }
}
