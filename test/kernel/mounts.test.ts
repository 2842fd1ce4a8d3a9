import type { AddressInfo } from 'node:net';
import express, { type NextFunction, type Request, type Response } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mountIndex } from '../../kernel/app/mounts.js';

/** Each mount notes what it saw (its mount path, `baseUrl`, `url`) and passes the request on. */
const seen: string[] = [];
const noting = (name: string) => (req: Request, _res: Response, next: NextFunction) => {
  seen.push(`${name} ${req.baseUrl} ${req.url}`);
  next();
};

describe('the mount index', () => {
  let base = '';
  let close: () => void;

  beforeAll(async () => {
    const app = express();
    app.use(mountIndex([
      { path: '/api/dcim/', chain: [noting('dcim')] },
      { path: '/', chain: [noting('root')] },
      { path: '/api', chain: [noting('api'), (req, res, next) => (req.query.answer ? res.json({ by: 'api', url: req.url }) : next())] },
      { path: '/api/:app/widgets', chain: [noting('pattern')] },
      { path: '/api/dcim/sites', chain: [(req, res) => void res.json({ by: 'sites', base: req.baseUrl, url: req.url })] },
      { path: '/fails', chain: [(_req, _res, next) => next(new Error('broken'))] },
    ]));
    app.use((_req: Request, res: Response) => void res.status(404).json({ by: 'nobody' }));
    app.use((err: Error, _req: Request, res: Response, _next: NextFunction) => void res.status(500).json({ error: err.message }));
    const server = app.listen(0);
    await new Promise((ok) => server.once('listening', ok));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => server.close();
  });
  afterAll(() => close());

  const get = async (path: string) => {
    seen.length = 0;
    const response = await fetch(base + path);
    return { status: response.status, body: (await response.json()) as Record<string, string>, seen: [...seen] };
  };

  it('runs the mounts whose path prefixes the request, in mount order, each seeing the path relative to it', async () => {
    expect(await get('/api/dcim/sites/5/?brief=1')).toEqual({
      status: 200,
      body: { by: 'sites', base: '/api/dcim/sites', url: '/5/?brief=1' },
      seen: ['dcim /api/dcim /sites/5/?brief=1', 'root  /api/dcim/sites/5/?brief=1', 'api /api /dcim/sites/5/?brief=1'],
    });
  });

  it('matches whole segments, case-sensitively, and paths with parameters', async () => {
    expect(await get('/api/dcimx/')).toMatchObject({ status: 404, seen: ['root  /api/dcimx/', 'api /api /dcimx/'] });
    expect(await get('/API/dcim/sites/')).toMatchObject({ status: 404, seen: ['root  /API/dcim/sites/'] });
    expect(await get('/api/ipam/widgets/')).toMatchObject({ status: 404, seen: ['root  /api/ipam/widgets/', 'api /api /ipam/widgets/', 'pattern /api/ipam/widgets /'] });
    expect(await get('/')).toMatchObject({ status: 404, seen: ['root  /'] });
  });

  it('stops at a mount that answers, and hands an error to the error handler', async () => {
    expect(await get('/api/dcim/sites/?answer=1')).toMatchObject({ status: 200, body: { by: 'api', url: '/dcim/sites/?answer=1' } });
    expect(await get('/fails/')).toMatchObject({ status: 500, body: { error: 'broken' } });
  });
});
