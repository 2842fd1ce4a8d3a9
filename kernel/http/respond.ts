import type { Request, Response } from 'express';
import type { Json } from '../base/types.js';
import type { PageRenderer } from '../app/surface.js';
import { queryParam } from './request.js';

/** Whether the client asked for the browsable HTML rendering. */
export function wantsHtml(req: Request): boolean {
  const format = queryParam(req, 'format');
  if (format) return format === 'api';
  return req.method === 'GET' && req.accepts(['application/json', 'text/html']) === 'text/html' && !!req.get('accept')?.includes('text/html');
}

/** Sends a JSON body (pretty-printed on request), or to a browser the page of it a plugin renders (the browsable API). */
export function send(req: Request, res: Response, status: number, body: Json, title = 'Patchbay'): void {
  const pages = req.app.locals.pages as PageRenderer | undefined;
  if (pages && wantsHtml(req)) {
    // It never fails: a page it cannot render is logged and sent as JSON.
    void pages.respond(req, res, status, body, title, () => sendJson(req, res, status, body));
    return;
  }
  sendJson(req, res, status, body);
}

function sendJson(req: Request, res: Response, status: number, body: Json): void {
  res.status(status).type('application/json').send(JSON.stringify(body, null, indentOf(req)));
}

/** `?indent=n`, or DRF's media-type parameter (`Accept: application/json; indent=n`); at most 10. */
function indentOf(req: Request): number | undefined {
  const param = queryParam(req, 'indent') ?? /(?:^|,)\s*application\/json\s*;[^,]*?\bindent=(\d{1,3})/i.exec(req.get('accept') ?? '')?.[1];
  const indent = Number(param);
  return Number.isInteger(indent) && indent > 0 ? Math.min(indent, 10) : undefined;
}

export function noContent(res: Response): void {
  res.status(204).end();
}
