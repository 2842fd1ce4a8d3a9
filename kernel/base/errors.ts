import type { JsonObject } from './types.js';

/** An error that becomes an HTTP response with this status and JSON body. */
export class HttpError extends Error {
  constructor(readonly status: number, readonly body: JsonObject) {
    super(typeof body.detail === 'string' ? body.detail : `HTTP ${status}`);
  }
}

export const notFound = () => new HttpError(404, { detail: 'Not found.' });
