import { createServer } from 'node:http';
import { guarded } from '@patchbay/guards';

/**
 * `manage webhook_receiver [--port 9000]`: NetBox's test receiver. Prints each request's method, path, headers and
 * body, and answers 200; nothing else.
 */
export async function webhookReceiver(args: string[]): Promise<number> {
  const at = args.indexOf('--port');
  const port = at >= 0 ? Number(args[at + 1]) : 9000;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`--port: "${args[at + 1] ?? ''}" is not a port number\n`);
    return 2;
  }
  let count = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    const failed = (err: unknown) => process.stderr.write(`${String(err)}\n`);
    req.on('data', guarded((c: Buffer) => void chunks.push(c), failed));
    req.on('end', guarded(() => {
      count += 1;
      const lines = [`[${count}] ${new Date().toISOString()} ${req.method} ${req.url}`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      const body = Buffer.concat(chunks).toString('utf8');
      lines.push('', body || '(no body)', '------------');
      process.stdout.write(`${lines.join('\n')}\n`);
      res.writeHead(200, { 'Content-Type': 'text/plain' }).end('Webhook received!\n');
    }, failed));
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(port, () => ok());
  });
  const { port: bound } = server.address() as { port: number };
  process.stdout.write(`Listening on port http://localhost:${bound}. Stop with CONTROL-C.\n`);
  await new Promise<void>((ok) => {
    process.once('SIGINT', () => ok());
    process.once('SIGTERM', () => ok());
  });
  server.closeAllConnections();
  await new Promise((ok) => server.close(ok));
  return 0;
}
