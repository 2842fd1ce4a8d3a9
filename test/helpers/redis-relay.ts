import { createConnection, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP relay to Redis that can hold the server's commands back (a Redis that stopped answering) and let them through
 * again, in order.
 */
export async function redisRelay(target: string): Promise<{ url: string; pause(): void; resume(): void; open(): number; close(): Promise<void> }> {
  const { hostname, port } = new URL(target);
  let paused = false;
  const held: (() => void)[] = [];
  const upstreams = new Set<Socket>();
  const relay: Server = createServer((client) => {
    const upstream = createConnection(Number(port), hostname);
    upstreams.add(upstream);
    upstream.on('close', () => upstreams.delete(upstream));
    client.on('data', (d) => (paused ? held.push(() => upstream.destroyed || upstream.write(d)) : upstream.write(d)));
    upstream.pipe(client);
    // When the server dies, so do its connections to Redis (with its blocking reads for jobs).
    for (const socket of [client, upstream]) socket.on('close', () => [client, upstream].forEach((s) => s.destroy())).on('error', () => undefined);
  });
  await new Promise<void>((ok) => relay.listen(0, '127.0.0.1', ok));
  const { port: relayPort } = relay.address() as { port: number };
  return {
    url: `redis://127.0.0.1:${relayPort}`,
    pause: () => void (paused = true),
    resume: () => {
      paused = false;
      held.splice(0).forEach((send) => send());
    },
    /** Connections to Redis still open. */
    open: () => upstreams.size,
    close: () => new Promise((ok) => relay.close(() => ok())),
  };
}
