import express, { type Request, type Response, type Router } from 'express';
import { HttpError } from '../base/errors.js';
import { noContent, send } from '../http/respond.js';
import type { Model } from '../model/model.js';
import { optionsBody } from './metadata.js';
import { multipartBody } from './multipart.js';
import { fetchRow, listObjects, parseId, readObject } from './read.js';
import type { RestServices } from './services.js';
import { bulkDestroy, bulkUpdate, create, destroy, update } from './write.js';

function methodNotAllowed(req: Request): never {
  throw new HttpError(405, { detail: `Method "${req.method}" not allowed.` });
}

/** Plugins' other answers of list endpoints, by the query parameter choosing them (`export`). */
export type ListOutputs = Map<string, (req: Request, res: Response, model: Model) => Promise<void>>;

/** The generic list and detail endpoints of one model, derived from its declaration. */
export function modelRouter(model: Model, services: RestServices, outputs: ListOutputs = new Map()): Router {
  const router = express.Router({ strict: true, caseSensitive: true, mergeParams: true });
  const title = (kind: string) => `${model.title} ${kind}`;
  if (model.decl.readOnly) {
    router.use((req, _res, next) => (['GET', 'HEAD', 'OPTIONS'].includes(req.method) ? next() : methodNotAllowed(req)));
  }
  router.use(multipartBody(model, services.settings.MAX_BODY_SIZE));

  const list = router.route('/').get(async (req, res) => {
    const output = [...outputs].find(([param]) => req.query[param] !== undefined);
    if (output) await output[1](req, res, model);
    else send(req, res, 200, await listObjects(req, model, services), title('List'));
  });
  // A read-only model registers no writes (they answer 405), so that only what it serves is listed (OpenAPI).
  if (!model.decl.readOnly) {
    list
      .post(async (req, res) => send(req, res, 201, await create(req, model, services)))
      .put(async (req, res) => send(req, res, 200, await bulkUpdate(req, model, 'update', services)))
      .patch(async (req, res) => send(req, res, 200, await bulkUpdate(req, model, 'partial', services)))
      .delete(async (req, res) => {
        await bulkDestroy(req, model, services);
        noContent(res);
      });
  }
  list
    .options(async (req, res) => {
      await req.access.require(model, 'view');
      send(req, res, 200, optionsBody(model, services.registry, 'list', await req.access.can(model, 'add')));
    })
    .all(methodNotAllowed);

  const detail = router.route('/:id/').get(async (req: Request<{ id: string }>, res: Response) => {
    send(req, res, 200, await readObject(req, model, parseId(req.params.id), services), title('Instance'));
  });
  if (!model.decl.readOnly) {
    detail
      .put(async (req: Request<{ id: string }>, res: Response) => {
        send(req, res, 200, await update(req, model, parseId(req.params.id), 'update', services));
      })
      .patch(async (req: Request<{ id: string }>, res: Response) => {
        send(req, res, 200, await update(req, model, parseId(req.params.id), 'partial', services));
      })
      .delete(async (req: Request<{ id: string }>, res: Response) => {
        await destroy(req, model, parseId(req.params.id), services);
        noContent(res);
      });
  }
  detail
    .options(async (req: Request<{ id: string }>, res: Response) => {
      await fetchRow(req, model, parseId(req.params.id), services);
      send(req, res, 200, optionsBody(model, services.registry, 'detail', await req.access.can(model, 'change')));
    })
    .all(methodNotAllowed);

  return router;
}
