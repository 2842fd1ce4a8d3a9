import { hasControl } from './template-text.js';

const TOKEN = "[!#$%&'*+\\-.^_`|~0-9A-Za-z]+";
const QUOTED = '"(?:[\\t\\x20\\x21\\x23-\\x5b\\x5d-\\x7e]|\\\\[\\t\\x20-\\x7e])*"';
/** RFC 9110's media type: `type/subtype`, then `; name=value` parameters (empty ones allowed). */
const MEDIA_TYPE = new RegExp(`^${TOKEN}/${TOKEN}(?:[ \\t]*;[ \\t]*(?:${TOKEN}=(?:${TOKEN}|${QUOTED}))?)*$`);

/** Why a template's `mime_type` cannot be its answer's `Content-Type`. */
export function mimeTypeProblem(value: string): string | undefined {
  if (hasControl(value)) return 'MIME types may not contain line breaks or other control characters.';
  return MEDIA_TYPE.test(value) ? undefined : 'Enter a MIME type as type/subtype, with optional parameters (text/csv; charset=utf-8).';
}

/** Why a `file_name` or `file_extension` cannot go into the answer's `Content-Disposition`. */
export function fileNameProblem(value: string): string | undefined {
  return hasControl(value) ? 'File names may not contain line breaks or other control characters.' : undefined;
}
