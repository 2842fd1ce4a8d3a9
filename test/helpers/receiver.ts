import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';

export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  text: string;
}

/** A webhook receiver for tests: records every request; `answer` picks each response's status (200 by default). */
export class Receiver {
  readonly requests: Received[] = [];
  answer: (req: Received) => number | Promise<number> = () => 200;
  private server?: Server;
  url = '';

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        const body = Buffer.concat(chunks);
        const received = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, text: body.toString('utf8') };
        const status = await this.answer(received);
        this.requests.push(received);
        res.writeHead(status, { 'Content-Type': 'text/plain' }).end(status < 300 ? 'ok' : `nope ${status}`);
      });
    });
    await new Promise<void>((ok) => this.server!.listen(0, '127.0.0.1', ok));
    const { port } = this.server.address() as { port: number };
    this.url = `http://127.0.0.1:${port}`;
    return this.url;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((ok) => this.server?.close(ok));
  }
}
