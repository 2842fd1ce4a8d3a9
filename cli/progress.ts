/**
 * Progress of a command through its steps: a bar redrawn in place on a terminal, one line per finished step
 * otherwise (logs and CI stay readable), with what the step did and how long it took.
 */
export class Progress {
  private done = 0;
  private readonly started = Date.now();
  private readonly steps = new Map<string, number>();

  constructor(private readonly total: number, private readonly out: NodeJS.WriteStream = process.stderr) {}

  /** Marks the start of step `label`. */
  start(label: string): void {
    this.steps.set(label, Date.now());
    if (this.out.isTTY) this.draw(label);
  }

  /**
   * Marks the end of the step, with what it did (`12,000 rows`); `quiet`: a line only on a terminal's bar (a step
   * of a larger unit that reports itself).
   */
  finish(label: string, detail: string, quiet = false): void {
    this.done += 1;
    const started = this.steps.get(label) ?? Date.now();
    this.steps.delete(label);
    if (this.out.isTTY) {
      this.draw(label);
      if (this.done === this.total) this.out.write('\n');
    } else if (!quiet) {
      this.out.write(`[${this.done}/${this.total}] ${label}: ${detail} (${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
    }
  }

  /** A line of its own (what a group of steps did) where there is no bar to show it. */
  note(line: string): void {
    if (!this.out.isTTY) this.out.write(`${line}\n`);
  }

  /** Seconds since the progress began. */
  get seconds(): number {
    return (Date.now() - this.started) / 1000;
  }

  private draw(label: string): void {
    const width = 30;
    const filled = Math.round((this.done / this.total) * width);
    const bar = `${'█'.repeat(filled)}${'░'.repeat(width - filled)}`;
    this.out.write(`\r\x1b[2K${bar} ${this.done}/${this.total} ${label} (${this.seconds.toFixed(1)} s)`);
  }
}
