import { gzipSync } from 'node:zlib';
import type { Request, Response } from 'express';

/** A response body kept in memory, gzipped (once, on first need) for the clients that take it. */
export class StoredBody {
  private gzipped?: Buffer;

  /** `type` as express's `res.type` takes it (`application/json`, `.js`); images are compressed already. */
  constructor(private readonly type: string, private readonly plain: Buffer, private readonly compressible = true) {}

  send(req: Request, res: Response): void {
    res.type(this.type).vary('Accept-Encoding');
    if (this.compressible && req.acceptsEncodings('gzip', 'identity') === 'gzip') {
      this.gzipped ??= gzipSync(this.plain);
      res.set('Content-Encoding', 'gzip').send(this.gzipped);
    } else {
      res.send(this.plain);
    }
  }
}
