import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { guarded } from '@patchbay/guards';
import type { Settings } from '../config/settings.js';
import { HttpError } from '../base/errors.js';
import { API_VERSION } from '../base/version.js';
import { JsonShape, type JsonLimits } from './json-shape.js';
import { checkTexts } from '../base/text.js';

/** Every response carries its request's id and the API level. */
export function requestHeaders(req: Request, res: Response, next: NextFunction): void {
  req.requestId = randomUUID();
  res.setHeader('X-Request-ID', req.requestId);
  res.setHeader('API-Version', API_VERSION);
  next();
}

/** A host name or address, with an optional port, as Django validates `Host`. */
const HOST = /^([a-z0-9.-]+|\[[a-f0-9]*:[a-f0-9.:]+\])(?::(\d{1,5}))?$/i;

/** Whether `name` (lower case, no port) matches ALLOWED_HOSTS: `*`, an exact name, or `.example.com` and its subdomains. */
function hostAllowed(name: string, allowed: string[]): boolean {
  return allowed.some((pattern) => {
    const p = pattern.toLowerCase();
    if (p === '*' || p === name) return true;
    return p.startsWith('.') && (name === p.slice(1) || name.endsWith(p));
  });
}

/**
 * Refuses (400) a request whose `Host` is malformed or not in ALLOWED_HOSTS, before anything builds an
 * absolute URL from it.
 */
export function allowedHost(settings: Settings) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    const host = req.get('host') ?? '';
    const m = HOST.exec(host);
    if (!m || (m[2] !== undefined && Number(m[2]) > 65535)) {
      throw new HttpError(400, { detail: `Invalid HTTP_HOST header: '${host}'. The domain name provided is not valid.` });
    }
    const name = m[1].toLowerCase().replace(/\.$/, '');
    if (!hostAllowed(name, settings.ALLOWED_HOSTS)) {
      throw new HttpError(400, { detail: `Invalid HTTP_HOST header: '${host}'. You may need to add '${name}' to ALLOWED_HOSTS.` });
    }
    next();
  };
}

/** Query parameters with text PostgreSQL cannot take (a NUL character, a lone surrogate) are a 400 naming them. */
export function queryTexts(req: Request, _res: Response, next: NextFunction): void {
  checkTexts(req.query as Record<string, unknown>);
  next();
}

/** `/api/...` without its trailing slash redirects (302) to the slashed URL, query kept. */
export function trailingSlash(req: Request, res: Response, next: NextFunction): void {
  if (req.path.startsWith('/api') && !req.path.endsWith('/')) {
    const query = req.originalUrl.slice(req.originalUrl.indexOf('?') >= 0 ? req.originalUrl.indexOf('?') : req.originalUrl.length);
    res.redirect(302, `${req.path}/${query}`);
    return;
  }
  next();
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * A request's body, read as it arrives: past `limit` bytes, or past `shape` as its JSON structure goes (checked chunk
 * by chunk), it is refused at once, without keeping or parsing the rest (a body too large closes the connection; see
 * `errorHandler`).
 */
function readBody(req: Request, limit: number, shape?: JsonShape): Promise<Buffer> {
  if (Number(req.get('content-length')) > limit) return Promise.reject(tooLarge(limit));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (err?: unknown) => {
      req.off('data', onData).off('end', onEnd).off('error', settle).off('close', onClose);
      if (err === undefined) return resolve(Buffer.concat(chunks, size));
      req.pause();
      reject(err);
    };
    const onData = guarded((chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) return settle(tooLarge(limit));
      const problem = shape?.push(chunk);
      if (problem) return settle(new HttpError(400, { detail: `JSON parse error - ${problem}.` }));
      chunks.push(chunk);
    }, settle);
    const onEnd = guarded(() => settle(), settle);
    // The client went away mid-body: nothing is left to answer.
    const onClose = guarded(() => settle(new Error('The client closed the connection before its body was read')), settle);
    req.on('data', onData).once('end', onEnd).once('error', settle).once('close', onClose);
  });
}

const tooLarge = (limit: number) => new HttpError(413, { detail: `Request body exceeds the limit of ${limit} bytes.` });

/** The settings' bounds on a JSON body's structure. */
export const jsonLimits = (settings: Settings): JsonLimits => ({ depth: settings.MAX_JSON_DEPTH, keys: settings.MAX_JSON_KEYS, elements: settings.MAX_JSON_ELEMENTS });

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** JSON from UTF-8 bytes (their shape checked already); a 400 saying what is wrong otherwise. */
function parseJson(raw: Uint8Array): unknown {
  let text: string;
  try {
    text = utf8.decode(raw);
  } catch {
    throw new HttpError(400, { detail: 'JSON parse error - the request body is not valid UTF-8.' });
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new HttpError(400, { detail: `JSON parse error - ${(err as Error).message}` });
  }
}

/**
 * Reads and parses write bodies: JSON only (multipart is left to the routes that accept it). It runs after
 * authentication: a request refused for want of a login is answered before its body is read. Too large → 413, other
 * media types → 415 (unread); malformed JSON, bytes that are not UTF-8 (NetBox refuses them, where decoding leniently
 * would store U+FFFD), and a structure past `shape` (nesting, keys of one object, values in all; checked as the bytes
 * arrive, before parsing) → 400. A form (the login page's) may hold at most `shape.keys` fields.
 */
export function bodyParser(limit: number, shape: JsonLimits) {
  return async (req: Request, _res: Response, next: NextFunction): Promise<void> => {
    req.payload = undefined;
    if (!BODY_METHODS.has(req.method)) return next();
    const type = (req.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
    if (type === 'multipart/form-data') return next();
    // HTML forms (the login page) post urlencoded bodies; the API speaks JSON only.
    if (type === 'application/x-www-form-urlencoded' && !req.path.startsWith('/api/')) {
      const raw = await readBody(req, limit);
      if (raw.filter((byte) => byte === 0x26).length >= shape.keys) throw new HttpError(400, { detail: `The form has more than ${shape.keys} fields.` });
      if (raw.length) req.payload = Object.fromEntries(new URLSearchParams(raw.toString('utf8')));
      return next();
    }
    const json = type === 'application/json' || type.endsWith('+json');
    const unsupported = () => new HttpError(415, { detail: `Unsupported media type "${req.get('content-type') ?? ''}" in request.` });
    if (!json && Number(req.get('content-length')) > 0) throw unsupported();
    const raw = await readBody(req, limit, json ? new JsonShape(shape) : undefined);
    if (raw.length === 0) return next();
    if (!json) throw unsupported();
    req.payload = parseJson(raw);
    next();
  };
}
