/**
 * Progress of a command through its steps: a bar redrawn in place on a terminal, one line per finished step
 * otherwise (logs and CI stay readable).
 */
export class Progress {
  private done = 0;
  private readonly started = Date.now();

  constructor(private readonly total: number, private readonly out: NodeJS.WriteStream = process.stderr) {}

  /** Marks the start of step `label`. */
  start(label: string): void {
    if (this.out.isTTY) this.draw(label);
  }

  /** Marks the end of the step, with what it did (`12,000 rows`). */
  finish(label: string, detail: string): void {
    this.done += 1;
    if (this.out.isTTY) {
      this.draw(label);
      if (this.done === this.total) this.out.write('\n');
    } else {
      this.out.write(`[${this.done}/${this.total}] ${label}: ${detail}\n`);
    }
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
