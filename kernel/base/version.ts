import { readFileSync } from 'node:fs';

/** The NetBox API level Patchbay implements; clients pick field names from the `API-Version` header. */
export const API_VERSION = '4.4';

/** Patchbay's own version (the kernel's, which plugins declare compatibility with). */
export const PATCHBAY_VERSION: string = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
