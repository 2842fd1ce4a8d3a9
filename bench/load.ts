import { connect, type Socket } from 'node:net';
import type { Measurement } from './harness.js';

const HEAD_END = Buffer.from('\r\n\r\n');

/**
 * GETs `url` over `connections` keep-alive sockets for `seconds` (after a second of warm-up) and reports requests/s.
 * The client writes one prepared request and reads only the status line and Content-Length of each answer: a fraction
 * of what fetch spends, so that on a small machine the server's processes, not the client, get the cores (what a
 * WORKERS comparison needs). Fails on any answer but 200.
 */
export async function hammer(name: string, url: string, seconds: number, headers: Record<string, string> = {}, connections = 8): Promise<Measurement> {
  const target = new URL(url);
  const lines = [`GET ${target.pathname}${target.search} HTTP/1.1`, `Host: ${target.host}`, 'Accept: application/json', ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
  const request = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`);
  const sockets = await Promise.all(Array.from({ length: connections }, () => open(target)));
  try {
    await run(sockets, request, performance.now() + 1000);
    const start = performance.now();
    const requests = await run(sockets, request, start + seconds * 1000);
    const elapsed = (performance.now() - start) / 1000;
    return { name, requests, seconds: elapsed, perSecond: requests / elapsed };
  } finally {
    for (const socket of sockets) socket.destroy();
  }
}

function open(target: URL): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: target.hostname, port: Number(target.port), noDelay: true }, () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Sends `request` on every socket again and again until `deadline`, each waiting for its answer; the answers counted. */
async function run(sockets: Socket[], request: Buffer, deadline: number): Promise<number> {
  const counts = await Promise.all(sockets.map((socket) => new Promise<number>((resolve, reject) => {
    let count = 0;
    let pending: Buffer = Buffer.alloc(0);
    let bodyLeft = -1;
    const next = () => {
      if (performance.now() >= deadline) return finish();
      socket.write(request);
    };
    const onData = (chunk: Buffer) => {
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      for (;;) {
        if (bodyLeft < 0) {
          const end = pending.indexOf(HEAD_END);
          if (end < 0) return;
          const head = pending.subarray(0, end).toString('latin1');
          const status = head.slice(9, 12);
          const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
          if (status !== '200' || !length) return fail(new Error(`${request.toString('latin1').split('\r\n')[0]}: HTTP ${status}${length ? '' : ' without Content-Length'}`));
          bodyLeft = Number(length[1]);
          pending = pending.subarray(end + HEAD_END.length);
        }
        if (pending.length < bodyLeft) return;
        pending = pending.subarray(bodyLeft);
        bodyLeft = -1;
        count += 1;
        next();
        if (!pending.length) return;
      }
    };
    const onError = (err: Error) => fail(err);
    const detach = () => (socket.off('data', onData), socket.off('error', onError));
    const finish = () => (detach(), resolve(count));
    const fail = (err: Error) => (detach(), reject(err));
    socket.on('data', onData);
    socket.on('error', onError);
    next();
  })));
  return counts.reduce((a, b) => a + b, 0);
}
