import { readSync, writeSync } from 'node:fs';

/**
 * Messages between the server and a template process, over a socket pair (the process's fd 3): each is its JSON
 * text, preceded by its length in bytes (4 bytes, big-endian).
 */
const HEADER = 4;

export function frame(message: unknown): Buffer {
  const body = Buffer.from(JSON.stringify(message), 'utf8');
  const header = Buffer.alloc(HEADER);
  header.writeUInt32BE(body.length);
  return Buffer.concat([header, body]);
}

/**
 * The server's side: whole messages out of the chunks a socket delivers. A length beyond `maxBytes` means the process
 * misbehaves; `push` then throws and the caller ends it.
 */
export class FrameReader {
  private chunks: Buffer[] = [];
  private size = 0;
  /** The length of the message under way, once its header arrived. */
  private needed?: number;

  constructor(private readonly maxBytes: number) {}

  push(chunk: Buffer): unknown[] {
    this.chunks.push(chunk);
    this.size += chunk.length;
    const messages: unknown[] = [];
    while (this.size >= HEADER) {
      if (this.needed === undefined) {
        this.chunks = [Buffer.concat(this.chunks, this.size)];
        this.needed = this.chunks[0].readUInt32BE(0);
        if (this.needed > this.maxBytes) throw new Error(`A template process sent a message of ${this.needed} bytes`);
      }
      // Chunks are joined once a message is whole, not as each arrives.
      if (this.size < HEADER + this.needed) break;
      const all = Buffer.concat(this.chunks, this.size);
      messages.push(JSON.parse(all.toString('utf8', HEADER, HEADER + this.needed)));
      const rest = all.subarray(HEADER + this.needed);
      this.chunks = rest.length ? [rest] : [];
      this.size = rest.length;
      this.needed = undefined;
    }
    return messages;
  }
}

/** Sleeps without the event loop (a template process has none running while it renders). */
const pause = new Int32Array(new SharedArrayBuffer(4));

/** The template process's side: blocking reads and writes on `fd`, since a template calls the server synchronously. */
export class SyncChannel {
  constructor(private readonly fd: number) {}

  /** The next message, or undefined once the server closed its end (it stopped, or died). */
  read(): unknown {
    const header = this.readExactly(HEADER);
    if (!header) return undefined;
    const body = this.readExactly(header.readUInt32BE(0));
    if (!body) return undefined;
    return JSON.parse(body.toString('utf8'));
  }

  write(message: unknown): void {
    const bytes = frame(message);
    for (let done = 0; done < bytes.length;) done += this.retrying(() => writeSync(this.fd, bytes, done, bytes.length - done));
  }

  private readExactly(length: number): Buffer | undefined {
    const buffer = Buffer.allocUnsafe(length);
    for (let done = 0; done < length;) {
      const read = this.retrying(() => readSync(this.fd, buffer, done, length - done, null));
      if (read === 0) return undefined;
      done += read;
    }
    return buffer;
  }

  /** The socket is blocking as a child's is given it; should it be otherwise, a would-block is waited out. */
  private retrying(io: () => number): number {
    for (;;) {
      try {
        return io();
      } catch (err) {
        if ((err as { code?: string }).code !== 'EAGAIN') throw err;
        Atomics.wait(pause, 0, 0, 1);
      }
    }
  }
}
