import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Request, Response } from 'express';
import type { Settings } from '../config/settings.js';
import type { Accounts } from './accounts.js';
import type { Principal } from './principal.js';

export const SESSION_COOKIE = 'sessionid';
export const CSRF_COOKIE = 'csrftoken';

/** Sessions are looked up by an HMAC of their key under SECRET_KEY, so a leaked table holds no usable keys. */
function sessionDigest(key: string, settings: Settings): string {
  return createHmac('sha256', settings.SECRET_KEY ?? '').update(key).digest('hex');
}

/** A cookie value as sent: percent-decoded when it decodes, as is otherwise (a malformed cookie is the client's, not a 500). */
function decodeCookie(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

export function cookies(req: Request): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (req.get('cookie') ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0) out[part.slice(0, i).trim()] = decodeCookie(part.slice(i + 1).trim());
  }
  return out;
}

/** Whether a given CSRF token is the expected one (compared in constant time). */
export function sameToken(given: string, expected: string): boolean {
  return given.length === expected.length && expected.length > 0 && timingSafeEqual(Buffer.from(given), Buffer.from(expected));
}

/**
 * The CSRF token of a browser without a session (the login form's, as Django's): the `csrftoken` cookie when it
 * holds one, else a new one set on the response.
 */
export function formCsrfToken(req: Request, res: Response, settings: Settings): string {
  const current = cookies(req)[CSRF_COOKIE];
  if (current && /^[0-9a-f]{64}$/.test(current)) return current;
  const token = randomBytes(32).toString('hex');
  res.append('Set-Cookie', cookie(CSRF_COOKIE, token, settings.SESSION_COOKIE_AGE, req, false));
  return token;
}

function cookie(name: string, value: string, maxAge: number, req: Request, httpOnly: boolean): string {
  const attrs = [`${name}=${encodeURIComponent(value)}`, 'Path=/', `Max-Age=${maxAge}`, 'SameSite=Lax'];
  if (httpOnly) attrs.push('HttpOnly');
  if (req.secure) attrs.push('Secure');
  return attrs.join('; ');
}

/** Starts a session for `userId`: an HttpOnly session cookie and a CSRF cookie that scripts echo in X-CSRFToken. */
export async function startSession(accounts: Accounts, settings: Settings, userId: number, req: Request, res: Response): Promise<void> {
  const key = randomBytes(32).toString('base64url');
  const csrf = randomBytes(32).toString('hex');
  const age = settings.SESSION_COOKIE_AGE;
  await accounts.startSession(userId, sessionDigest(key, settings), csrf, age);
  res.append('Set-Cookie', cookie(SESSION_COOKIE, key, age, req, true));
  res.append('Set-Cookie', cookie(CSRF_COOKIE, csrf, age, req, false));
}

export async function endSession(accounts: Accounts, settings: Settings, req: Request, res: Response): Promise<void> {
  const key = cookies(req)[SESSION_COOKIE];
  if (key) await accounts.endSession(sessionDigest(key, settings));
  res.append('Set-Cookie', cookie(SESSION_COOKIE, '', 0, req, true));
  res.append('Set-Cookie', cookie(CSRF_COOKIE, '', 0, req, false));
}

/** The principal of a live session cookie of an active user, or undefined. */
export async function sessionPrincipal(accounts: Accounts, settings: Settings, req: Request): Promise<Principal | undefined> {
  const key = cookies(req)[SESSION_COOKIE];
  if (!key) return undefined;
  const session = await accounts.session(sessionDigest(key, settings));
  if (!session || !session.user.is_active) return undefined;
  return { user: session.user, via: 'session', writeEnabled: true, csrfToken: session.csrfToken };
}
