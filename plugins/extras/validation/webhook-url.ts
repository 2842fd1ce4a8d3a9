import { hasControl, templateSegments } from './template-text.js';

const SCHEME = /^([a-z][a-z0-9+.-]*):/i;

/**
 * Why a webhook's `payload_url` cannot be sent, when its literal text already says so: a scheme other than http or
 * https (`file:`, `gopher:`, `javascript:` would reach other protocols), no scheme at all, or a line break or other
 * control character. A URL whose scheme a template decides (`{{ data.url }}`) is checked when it is delivered.
 */
export function payloadUrlProblem(url: string): string | undefined {
  if (hasControl(url)) return 'URLs may not contain line breaks or other control characters.';
  const [first] = templateSegments(url.trimStart());
  const prefix = first && !first.template ? first.text : '';
  const scheme = SCHEME.exec(prefix)?.[1];
  if (scheme !== undefined) {
    return /^https?$/i.test(scheme) ? undefined : `Enter a valid URL: the scheme must be http or https, not "${scheme}".`;
  }
  // Literal text that cannot begin a scheme (`example.com/…`, `/hooks`), or a whole URL without one.
  const wholeUrl = first !== undefined && !first.template && first.text.length === url.trimStart().length;
  if (wholeUrl || !/^[a-z0-9+.-]*$/i.test(prefix)) return 'Enter a valid URL: it must start with http:// or https://.';
  return undefined;
}
