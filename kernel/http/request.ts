import type { Request } from 'express';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- Express's own augmentation point
  namespace Express {
    interface Request {
      requestId: string;
      /** The parsed body; undefined when the request had none. */
      payload: unknown;
    }
  }
}

/** `http://host:port` of the request, for absolute URLs. */
export function baseUrl(req: Request): string {
  return `${req.protocol}://${req.get('host') ?? 'localhost'}`;
}

/** Query parameter as one string (the last one given), or undefined. */
export function queryParam(req: Request, name: string): string | undefined {
  const value = req.query[name];
  if (Array.isArray(value)) return value.length ? String(value[value.length - 1]) : undefined;
  return typeof value === 'string' ? value : undefined;
}
