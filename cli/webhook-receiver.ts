import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import { guarded } from '@patchbay/guards';
import { CommandError } from '../kernel/plugin.js';

/** Why the receiver cannot listen, in one line saying what to do. */
function listenProblem(err: NodeJS.ErrnoException, host: string, port: number): Error {
  switch (err.code) {
    case 'EADDRINUSE':
      return new CommandError(`Port ${port} on ${host} is taken: stop the program using it or choose another with --port N`);
    case 'EACCES':
      return new CommandError(`This user may not listen on port ${port} (ports below 1024 need privileges): choose another with --port N`);
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
      return new CommandError(`${host} is not an address of this machine: choose one with --host (0.0.0.0 for every interface)`);
    default:
      return new CommandError(`Cannot listen on ${host}:${port}: ${err.message}`);
  }
}

/**
 * `manage webhook_receiver [--port 9000] [--host 127.0.0.1]`: NetBox's test receiver. Prints each request's method,
 * path, headers and body, and answers 200; nothing else. It listens on the loopback address unless told otherwise:
 * whatever reaches it is printed.
 */
export async function webhookReceiver(args: string[]): Promise<number> {
  let values: { port?: string; host?: string };
  try {
    ({ values } = parseArgs({ args, options: { port: { type: 'string' }, host: { type: 'string' } }, strict: true }));
  } catch (err) {
    throw new CommandError((err as Error).message, 2);
  }
  const port = values.port === undefined ? 9000 : /^\d{1,5}$/.test(values.port) ? Number(values.port) : NaN;
  if (!(port >= 0 && port <= 65535)) throw new CommandError(`--port: "${values.port ?? ''}" is not a port number (0 to 65535)`, 2);
  const host = values.host ?? '127.0.0.1';
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
    server.once('error', (err: NodeJS.ErrnoException) => fail(listenProblem(err, host, port)));
    server.listen(port, host, () => ok());
  });
  const { port: bound } = server.address() as { port: number };
  process.stdout.write(`Listening on http://${host.includes(':') ? `[${host}]` : host}:${bound}/. Stop with CONTROL-C.\n`);
  await new Promise<void>((ok) => {
    process.once('SIGINT', () => ok());
    process.once('SIGTERM', () => ok());
  });
  server.closeAllConnections();
  await new Promise((ok) => server.close(ok));
  return 0;
}
