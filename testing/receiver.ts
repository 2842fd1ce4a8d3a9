import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { guarded } from '@patchbay/guards';

export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  text: string;
}

/** A webhook receiver: records every request it gets; `answer` picks each response's status (200 by default). */
export class WebhookReceiver {
  readonly requests: Received[] = [];
  answer: (req: Received) => number | Promise<number> = () => 200;
  private server?: Server;
  /** `http://127.0.0.1:<port>`, once started. */
  url = '';

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      const fail = () => res.destroy();
      req.on('data', guarded((c: Buffer) => chunks.push(c), fail));
      req.on('end', guarded(() => {
        const body = Buffer.concat(chunks);
        const received = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, text: body.toString('utf8') };
        void Promise.resolve(this.answer(received)).then((status) => {
          this.requests.push(received);
          res.writeHead(status, { 'Content-Type': 'text/plain' }).end(status < 300 ? 'ok' : `nope ${status}`);
        }, fail);
      }, fail));
    });
    await new Promise<void>((ok) => this.server!.listen(0, '127.0.0.1', ok));
    const { port } = this.server.address() as { port: number };
    this.url = `http://127.0.0.1:${port}`;
    return this.url;
  }

  /** Waits until `count` requests arrived (default 1), failing after `ms`; answers them. */
  async received(count = 1, ms = 15_000): Promise<Received[]> {
    const deadline = Date.now() + ms;
    while (this.requests.length < count) {
      if (Date.now() > deadline) throw new Error(`patchbay/testing: ${this.requests.length} of ${count} webhook requests arrived within ${ms} ms`);
      await new Promise((r) => setTimeout(r, 25));
    }
    return this.requests.slice(0, count);
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((ok) => this.server?.close(ok));
  }
}
