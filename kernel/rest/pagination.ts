import type { Request } from 'express';
import type { Settings } from '../config/settings.js';
import { maxPageSize } from '../config/load.js';
import { baseUrl, queryParam } from '../http/request.js';
import { ValidationError } from '../base/types.js';
import { INT_MAX } from '../base/values.js';

export interface Page {
  /** null: every row. */
  limit: number | null;
  offset: number;
}

/** A `limit` or `offset`: a whole number up to PostgreSQL's integer (anything else is ignored, as DRF ignores it). */
function nonNegativeInt(req: Request, name: string): number | undefined {
  const text = queryParam(req, name);
  if (text === undefined || !/^\d+$/.test(text.trim())) return undefined;
  const n = Number(text);
  if (n > INT_MAX) throw ValidationError.of(name, `Ensure this value is less than or equal to ${INT_MAX}.`);
  return n;
}

/** NetBox's limit/offset rules: PAGINATE_COUNT default, MAX_PAGE_SIZE cap, `limit=0` for all when uncapped. */
export function pageOf(req: Request, settings: Settings): Page {
  const max = maxPageSize(settings);
  const requested = nonNegativeInt(req, 'limit');
  const offset = nonNegativeInt(req, 'offset') ?? 0;
  let limit: number | null;
  if (requested === undefined) limit = settings.PAGINATE_COUNT;
  else if (requested === 0) limit = max;
  else limit = requested;
  if (limit !== null && max !== null) limit = Math.min(limit, max);
  return { limit, offset };
}

function pageUrl(req: Request, params: Record<string, number | null>): string {
  const url = new URL(req.originalUrl, baseUrl(req));
  for (const [k, v] of Object.entries(params)) {
    if (v === null) url.searchParams.delete(k);
    else url.searchParams.set(k, String(v));
  }
  return url.toString();
}

/** The next page of cursor pagination: `start` moves on, `offset` goes. */
export function cursorUrl(req: Request, start: number): string {
  return pageUrl(req, { start, offset: null });
}

/** `next` and `previous` absolute links, other query parameters kept. */
export function pageLinks(req: Request, page: Page, count: number): { next: string | null; previous: string | null } {
  const { limit, offset } = page;
  if (limit === null) return { next: null, previous: null };
  const next = offset + limit < count ? pageUrl(req, { limit, offset: offset + limit }) : null;
  let previous: string | null = null;
  if (offset > 0) previous = offset - limit <= 0 ? pageUrl(req, { limit, offset: null }) : pageUrl(req, { limit, offset: offset - limit });
  return { next, previous };
}

/** A list built in memory (a rack's units), paginated as list endpoints are: `{count, next, previous, results}`. */
export function paginate<T>(req: Request, settings: Settings, items: T[]): { count: number; next: string | null; previous: string | null; results: T[] } {
  const page = pageOf(req, settings);
  const results = page.limit === null ? items.slice(page.offset) : items.slice(page.offset, page.offset + page.limit);
  return { count: items.length, ...pageLinks(req, page, items.length), results };
}
