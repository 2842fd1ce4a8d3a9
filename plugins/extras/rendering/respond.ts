import type { Request, Response } from 'express';
import { HttpError, send, type JsonObject } from 'patchbay';

/**
 * A rendered configuration as the client asks for it: `text/plain` (or `?format=txt`) gets the text itself, JSON
 * (the default) the template in brief and the text; a client accepting neither gets a 406, as NetBox's renderers.
 */
export function sendRendered(req: Request, res: Response, template: JsonObject, content: string): void {
  const format = typeof req.query.format === 'string' ? req.query.format : undefined;
  const kind = format === 'txt' ? 'text' : format === 'json' ? 'json' : req.get('accept') ? req.accepts(['application/json', 'text/plain']) : 'application/json';
  if (kind === 'text/plain' || kind === 'text') {
    res.status(200).type('text/plain; charset=utf-8').send(content);
    return;
  }
  if (!kind) throw new HttpError(406, { detail: 'Could not satisfy the request Accept header.' });
  send(req, res, 200, { configtemplate: template, content });
}
