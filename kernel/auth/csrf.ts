import type { Request } from 'express';
import { escapeHtml as escape } from '../base/text.js';
import { sameToken } from './sessions.js';

/**
 * Django's CsrfViewMiddleware for a cookie-authenticated unsafe request (the API's writes, the login, logout and the
 * background tasks page's forms): why it is refused, or undefined when it passes. A write with a CSRF token can
 * still be forged from a site that obtained the token (a subdomain setting cookies), so its origin is checked first:
 * a given `Origin` must be this server's or trusted; over https without one, the `Referer` must be.
 */
export function csrfFailure(req: Request, trustedOrigins: readonly string[], given: string, expected: string): string | undefined {
  const origin = req.get('origin');
  if (origin !== undefined) {
    if (!originTrusted(origin, req, trustedOrigins)) return `Origin checking failed - ${origin} does not match any trusted origins.`;
  } else if (req.secure) {
    const problem = refererProblem(req, trustedOrigins);
    if (problem) return problem;
  }
  return sameToken(given, expected) ? undefined : 'CSRF token missing or incorrect.';
}

/** The token a form or a script sent: the form's `csrfmiddlewaretoken` field, else the `X-CSRFToken` header (Django's order). */
export function sentCsrfToken(req: Request): string {
  const form = req.payload;
  const field = req.is(['application/x-www-form-urlencoded', 'multipart/form-data']) && typeof form === 'object' && form !== null
    ? (form as Record<string, unknown>).csrfmiddlewaretoken
    : undefined;
  return typeof field === 'string' && field ? field : req.get('x-csrftoken') ?? '';
}

/** Django's 403 page for a refused form (the reason, which Django shows only with DEBUG, helps whoever set up a proxy). */
export function csrfFailurePage(reason: string, retry?: { href: string; label: string }): string {
  return '<!doctype html><title>Forbidden</title><h1>Forbidden (403)</h1><p>CSRF verification failed. Request aborted.</p>'
    + `<p>${escape(reason)}</p>${retry ? `<p><a href="${escape(retry.href)}">${escape(retry.label)}</a></p>` : ''}`;
}

/** Scheme and host[:port] of a URL as Python's urlparse splits them (the port kept as written), or undefined. */
function schemeAndHost(url: string): { scheme: string; host: string } | undefined {
  const m = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]*)/i.exec(url);
  return m && m[2] ? { scheme: m[1].toLowerCase(), host: m[2].toLowerCase() } : undefined;
}

/** Django's is_same_domain: `host` is `pattern`, or, for `.example.com`, that domain or one of its subdomains. */
function sameDomain(host: string, pattern: string): boolean {
  const p = pattern.toLowerCase();
  return p.startsWith('.') ? host.endsWith(p) || host === p.slice(1) : host === p;
}

/** This server's own origin as the client sees it: the scheme of `req.protocol` (TRUSTED_PROXIES) and the `Host`. */
function ownOrigin(req: Request): string {
  return `${req.protocol}://${req.get('host') ?? ''}`.toLowerCase();
}

/** Django's _origin_verified: this server's origin, a trusted one, or a subdomain a `scheme://*.domain` trusts. */
function originTrusted(origin: string, req: Request, trusted: readonly string[]): boolean {
  const given = origin.toLowerCase();
  if (given === ownOrigin(req)) return true;
  if (trusted.some((t) => !t.includes('*') && t.toLowerCase() === given)) return true;
  const parsed = schemeAndHost(given);
  if (!parsed) return false;
  return trusted.some((t) => {
    const pattern = t.includes('*') ? schemeAndHost(t) : undefined;
    return pattern !== undefined && pattern.scheme === parsed.scheme && sameDomain(parsed.host, pattern.host.replace(/^\*+/, ''));
  });
}

/** Django's _check_referer, for https requests without `Origin`: an https Referer of this host or a trusted one. */
function refererProblem(req: Request, trusted: readonly string[]): string | undefined {
  const referer = req.get('referer');
  if (referer === undefined) return 'Referer checking failed - no Referer.';
  const parsed = schemeAndHost(referer);
  if (!parsed) return 'Referer checking failed - Referer is malformed.';
  if (parsed.scheme !== 'https') return 'Referer checking failed - Referer is insecure while host is secure.';
  const hosts = trusted.map((t) => schemeAndHost(t)?.host.replace(/^\*+/, '')).filter((h): h is string => h !== undefined);
  if (hosts.some((h) => sameDomain(parsed.host, h))) return undefined;
  if (parsed.host === (req.get('host') ?? '').toLowerCase()) return undefined;
  return `Referer checking failed - ${referer} does not match any trusted origins.`;
}
