import { createInterface, type Interface } from 'node:readline';

/** Questions on the terminal, one reader for the whole command so that answers typed ahead are kept. */
export class Terminal {
  private rl?: Interface;
  private lines?: AsyncIterator<string>;
  private muted = false;

  private open(): AsyncIterator<string> {
    if (!this.lines) {
      this.rl = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
      // readline echoes what is typed through _writeToOutput: silenced while a hidden answer is typed.
      const rl = this.rl as unknown as { _writeToOutput: (s: string) => void };
      const write = rl._writeToOutput.bind(rl);
      rl._writeToOutput = (s) => {
        if (!this.muted) write(s);
      };
      this.lines = this.rl[Symbol.asyncIterator]();
    }
    return this.lines;
  }

  /** Asks `question`; hidden answers (passwords) are not echoed. Undefined when the input ended. */
  async ask(question: string, hidden = false): Promise<string | undefined> {
    const lines = this.open();
    process.stdout.write(question);
    this.muted = hidden;
    const next = await lines.next();
    this.muted = false;
    if (hidden) process.stdout.write('\n');
    return next.done ? undefined : next.value;
  }

  close(): void {
    this.rl?.close();
  }
}
