import { refine, string } from 'superstruct';

/** A service's URL fit to print: its password masked. */
export function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(not a URL)';
  }
}

/**
 * A URL of a service (PostgreSQL, Redis) with one of `schemes` and a host, checked when the settings load: a
 * mistake is named with an example rather than by a driver's message at the first connection. The value is not
 * echoed unless it parses (then with its password masked): a malformed URL may still hold one.
 */
export function serviceUrl(service: string, schemes: string[], example: string, needsPath = false) {
  return refine(string(), 'url', (value) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return `is not a URL; expected a ${service} URL such as ${example}`;
    }
    const shown = withoutPassword(value);
    if (!schemes.includes(url.protocol.slice(0, -1))) return `must start with ${schemes.map((s) => `${s}://`).join(' or ')} (a ${service} URL such as ${example}); got ${shown}`;
    // `postgres:///db?host=/var/run/postgresql` (a Unix socket) names its host as a parameter.
    if (!url.hostname && !url.searchParams.get('host')) return `names no host; expected a ${service} URL such as ${example}; got ${shown}`;
    if (needsPath && url.pathname.replace(/^\/+/, '') === '') return `names no database; expected a ${service} URL such as ${example}; got ${shown}`;
    return true;
  });
}
