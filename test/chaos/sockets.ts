import { request } from 'node:http';
import { connect, type Socket } from 'node:net';

/** How a hostile client ends its connection: a reset (RST) rather than a close. */
function reset(socket: Socket): void {
  if (!socket.destroyed) socket.resetAndDestroy();
}

/** Connects, runs `script` on the socket, and resolves once it ended (whatever the server did). */
export function withSocket(port: number, script: (socket: Socket, done: () => void) => void): Promise<string> {
  return new Promise((ok) => {
    let received = '';
    const socket = connect(port, '127.0.0.1');
    const done = () => {
      reset(socket);
      ok(received);
    };
    socket.on('data', (d: Buffer) => (received += d.toString('latin1')));
    socket.on('error', () => ok(received));
    socket.on('close', () => ok(received));
    socket.once('connect', () => script(socket, done));
  });
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const MB = Buffer.alloc(1024 * 1024, 0x61);

/** A chunked body streamed past MAX_BODY_SIZE (10 MB), then a reset. */
export function chunkedPastLimit(port: number, token?: string): Promise<string> {
  return withSocket(port, (socket, done) => {
    socket.write(`POST /api/tenancy/tenants/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n${token ? `Authorization: Token ${token}\r\n` : ''}Transfer-Encoding: chunked\r\n\r\n`);
    void (async () => {
      for (let i = 0; i < 14 && !socket.destroyed; i++) {
        socket.write(`${MB.length.toString(16)}\r\n`);
        socket.write(MB);
        socket.write('\r\n');
        await pause(5);
      }
      done();
    })();
  });
}

/** A declared `Content-Length`, part of the body, then a reset: mid-body (or after the 413 of a declared size past the limit). */
export function contentLengthReset(port: number, declared: number, sent: number, token?: string): Promise<string> {
  return withSocket(port, (socket, done) => {
    socket.write(`POST /api/tenancy/tenants/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n${token ? `Authorization: Token ${token}\r\n` : ''}Content-Length: ${declared}\r\n\r\n`);
    void (async () => {
      for (let left = sent; left > 0 && !socket.destroyed; left -= MB.length) {
        socket.write(MB.subarray(0, Math.min(left, MB.length)));
        await pause(5);
      }
      await pause(50);
      done();
    })();
  });
}

/** A multipart upload cut off mid-file. */
export function abortedUpload(port: number, token: string): Promise<string> {
  return withSocket(port, (socket, done) => {
    const boundary = 'chaosboundary';
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="object_type"\r\n\r\ndcim.site\r\n--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="x.png"\r\nContent-Type: image/png\r\n\r\n`;
    socket.write(`POST /api/extras/image-attachments/ HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Token ${token}\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${head.length + 3 * MB.length}\r\n\r\n${head}`);
    socket.write(MB, () => setTimeout(done, 20));
  });
}

/** A GET whose answer is cut off after its first bytes (`afterBytes`), or never read for `stallMs` then reset. */
export function readThenReset(port: number, path: string, token: string, options: { afterBytes?: number; stallMs?: number }): Promise<string> {
  return withSocket(port, (socket, done) => {
    socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Token ${token}\r\nAccept: application/json\r\n\r\n`);
    if (options.stallMs !== undefined) {
      // A slow reader: it reads nothing while the server writes.
      socket.pause();
      setTimeout(done, options.stallMs);
      return;
    }
    let seen = 0;
    socket.on('data', (d: Buffer) => {
      seen += d.length;
      if (seen >= (options.afterBytes ?? 1)) done();
    });
  });
}

/** A whole request and its whole answer, then a reset instead of a close. */
export function resetAfterAnswer(port: number, token: string): Promise<string> {
  return withSocket(port, (socket, done) => {
    socket.write(`GET /api/status/ HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Token ${token}\r\nAccept: application/json\r\n\r\n`);
    socket.on('data', (d: Buffer) => {
      if (d.toString('latin1').includes('"django-version"') || d.toString('latin1').includes('}')) done();
    });
  });
}

/** Headers sent in part, then a reset. */
export function partialHeaders(port: number): Promise<string> {
  return withSocket(port, (socket, done) => {
    socket.write('POST /api/tenancy/tenants/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Le');
    setTimeout(done, 30);
  });
}

/**
 * A request over a fresh connection (no keep-alive): each scrape may reach either process. It fails after 10 s, as a
 * client's would: a connection the supervisor handed to a process that was killed before it took it is never answered.
 */
export function freshGet(base: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false, headers: { Connection: 'close', ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.setTimeout(10_000, () => req.destroy(new Error(`no answer to ${path} within 10 s`)));
    req.on('error', reject);
    req.end();
  });
}
