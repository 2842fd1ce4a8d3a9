import { createConnection, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP relay to a server (PostgreSQL) that can be cut, as a network outage or a restart would: every open
 * connection is dropped and new ones are refused until it is restored.
 */
export async function tcpRelay(target: string): Promise<{ host: string; port: number; cut(): void; restore(): void; close(): Promise<void> }> {
  const { hostname, port } = new URL(target);
  let down = false;
  const sockets = new Set<Socket>();
  const relay: Server = createServer((client) => {
    if (down) return void client.destroy();
    const upstream = createConnection(Number(port), hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => {
        sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      }).on('error', () => undefined);
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((ok) => relay.listen(0, '127.0.0.1', ok));
  return {
    host: '127.0.0.1',
    port: (relay.address() as { port: number }).port,
    cut: () => {
      down = true;
      for (const socket of sockets) socket.destroy();
    },
    restore: () => void (down = false),
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((ok) => relay.close(() => ok()));
    },
  };
}
