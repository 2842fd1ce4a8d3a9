import type { Request, Response } from 'express';
import type { Json } from '../model/types.js';
import { browsablePage } from './browsable.js';
import { queryParam } from './request.js';

/** Whether the client asked for the browsable HTML rendering. */
export function wantsHtml(req: Request): boolean {
  const format = queryParam(req, 'format');
  if (format) return format === 'api';
  return req.method === 'GET' && req.accepts(['application/json', 'text/html']) === 'text/html' && !!req.get('accept')?.includes('text/html');
}

/** Sends a JSON body (pretty-printed on request), or the browsable page to a browser. */
export function send(req: Request, res: Response, status: number, body: Json, title = 'Patchbay'): void {
  if (wantsHtml(req)) {
    res.status(status).type('html').send(
      browsablePage({ title, method: req.method, path: req.originalUrl, status, body, user: req.principal?.user?.username ?? '' }),
    );
    return;
  }
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
