// The last N lines of a rank's output, kept for failure reports.

export class LineTail {
  private readonly lines: string[] = [];

  constructor(private readonly capacity: number) {}

  /** Keeps `line`, dropping the oldest beyond the capacity. */
  push(line: string): void {
    this.lines.push(line);
    if (this.lines.length > this.capacity) this.lines.splice(0, this.lines.length - this.capacity);
  }

  /** A copy of the kept lines, oldest first. */
  snapshot(): string[] {
    return [...this.lines];
  }
}
