import { lookup } from 'node:dns/promises';
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { networkInterfaces } from 'node:os';
import { guarded } from 'patchbay';

export interface OutgoingRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: Buffer;
  timeoutMs: number;
  sslVerification: boolean;
  caFilePath: string | null;
  /** Refuse addresses of this machine, loopback, link-local and unspecified ones (the SSRF guard). */
  refuseLocal: boolean;
  /** Bytes of the answer to keep (WEBHOOK_RESPONSE_BYTES); the rest is not read. */
  keepBytes: number;
}

export interface Answer {
  status: number;
  /** The response's first `keepBytes` bytes. */
  head: Buffer;
}

const PRIVATE = new BlockList();
PRIVATE.addSubnet('127.0.0.0', 8, 'ipv4');
PRIVATE.addSubnet('169.254.0.0', 16, 'ipv4');
PRIVATE.addSubnet('0.0.0.0', 8, 'ipv4');
PRIVATE.addAddress('::1', 'ipv6');
PRIVATE.addAddress('::', 'ipv6');
PRIVATE.addSubnet('fe80::', 10, 'ipv6');

function isLocal(address: string): boolean {
  const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
  const own = Object.values(networkInterfaces()).flatMap((list) => list ?? []).some((i) => i.address === address);
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  return own || PRIVATE.check(address, family) || (mapped !== undefined && isLocal(mapped));
}

/**
 * Resolves the host once and checks every address; the connection then uses exactly the checked addresses, so a
 * name that resolves differently a moment later (DNS rebinding) cannot slip through.
 */
async function guardedLookup(host: string): Promise<LookupFunction> {
  const bare = host.replace(/^\[|\]$/g, '');
  const addresses = isIP(bare) ? [{ address: bare, family: isIP(bare) }] : await lookup(bare, { all: true });
  const refused = addresses.find((a) => isLocal(a.address));
  if (refused) throw new Error(`Refused: ${host} resolves to ${refused.address}, a local address (WEBHOOK_REFUSE_LOCAL)`);
  return (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all) (callback as (e: null, a: typeof addresses) => void)(null, addresses);
    else callback(null, addresses[0].address, addresses[0].family);
  };
}

/**
 * Connections kept open between requests to the same host, port and TLS options (a connection is made only to a
 * checked address, so one reused is as safe), closed once idle for IDLE_MS or the time the server's `Keep-Alive`
 * answer gives, whichever is shorter: before most servers close theirs, which would fail a request sent as they do.
 */
const IDLE_MS = 4000;
const AGENTS = { http: new HttpAgent({ keepAlive: true, timeout: IDLE_MS }), https: new HttpsAgent({ keepAlive: true, timeout: IDLE_MS }) };

/** A CA bundle is a few hundred kilobytes at most. */
const MAX_CA_FILE = 4 * 1024 * 1024;

/**
 * The CA file's contents, read without blocking the event loop: a regular file of at most MAX_CA_FILE bytes, so that
 * a path naming a FIFO or a device (`/dev/zero`) fails the delivery rather than stall or exhaust the server.
 */
async function caFile(path: string): Promise<Buffer> {
  // Non-blocking: opening a FIFO would otherwise wait for a writer, holding one of libuv's few threads.
  const file = await open(path, constants.O_RDONLY | constants.O_NONBLOCK).catch((err: Error) => {
    throw new Error(`CA file ${path}: ${err.message}`);
  });
  try {
    const stat = await file.stat();
    if (!stat.isFile()) throw new Error(`CA file ${path} is not a regular file`);
    if (stat.size > MAX_CA_FILE) throw new Error(`CA file ${path} is larger than ${MAX_CA_FILE} bytes`);
    return await file.readFile();
  } finally {
    await file.close();
  }
}

/** Sends one webhook request with node's HTTP client; resolves with the status and the first bytes of the answer. */
export async function send(req: OutgoingRequest): Promise<Answer> {
  let url: URL;
  try {
    url = new URL(req.url);
  } catch {
    throw new Error(`Invalid URL: ${JSON.stringify(req.url)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`Unsupported URL scheme: ${url.protocol}`);
  const lookupFn = req.refuseLocal ? await guardedLookup(url.hostname) : undefined;
  const headers = { ...req.headers, 'Content-Length': String(req.body.length) };
  const tls = url.protocol === 'https:' ? { rejectUnauthorized: req.sslVerification, ...(req.caFilePath ? { ca: await caFile(req.caFilePath) } : {}) } : {};
  const make = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const keep = req.keepBytes;
  return new Promise<Answer>((resolve, reject) => {
    const fail = (err: unknown) => {
      clearTimeout(timer);
      reject(err);
    };
    const outgoing = make(url, { method: req.method, headers, lookup: lookupFn, agent: url.protocol === 'https:' ? AGENTS.https : AGENTS.http, ...tls }, guarded((res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const done = guarded(() => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, head: Buffer.concat(chunks).subarray(0, keep) });
      }, fail);
      // What is kept is read; the rest of the answer is not waited for.
      if (keep === 0) {
        res.destroy();
        return done();
      }
      res.on('data', guarded((chunk: Buffer) => {
        if (size < keep) chunks.push(chunk);
        size += chunk.length;
        if (size >= keep) res.destroy();
      }, fail));
      res.on('end', done);
      res.on('close', done);
      res.on('error', done);
    }, fail));
    const timer = setTimeout(() => outgoing.destroy(new Error(`Timed out after ${req.timeoutMs} ms`)), req.timeoutMs);
    outgoing.on('error', guarded(fail, fail));
    outgoing.end(req.body);
  });
}
