import type { Router } from 'express';
import type { ParameterObject, SchemaObject } from './types.js';

export const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
export type Method = (typeof METHODS)[number];

/** A route a plugin registered: its method and its path below the plugin's base path (express syntax, `/racks/:id/`). */
export interface RecordedRoute {
  method: Method;
  path: string;
}

/**
 * What a plugin says of one of its routes, for the OpenAPI document, keyed `GET /racks/{id}/elevation/` (the path
 * below its base path); the id and other `{…}` path parameters, the operation id and tags are filled in.
 */
export interface RouteOperation {
  summary: string;
  /** Answered without a token (token provisioning). */
  public?: boolean;
  description?: string;
  parameters?: ParameterObject[];
  requestBody?: SchemaObject;
  responses?: Record<string, { description: string; schema?: SchemaObject }>;
}

const isMethod = (name: string | symbol): name is Method => (METHODS as readonly (string | symbol)[]).includes(name);

/**
 * The router a plugin's `routes` receives: an express router that records each route it is given (`get`, `post`…,
 * and those of `route(path)`), so that the OpenAPI document lists every route the plugin serves.
 */
export function recordingRouter(router: Router, into: RecordedRoute[]): Router {
  const proxy: Router = new Proxy(router, {
    get(target, name, receiver) {
      if (isMethod(name)) {
        return (path: unknown, ...handlers: unknown[]) => {
          if (typeof path === 'string') into.push({ method: name, path });
          (target[name] as (...args: unknown[]) => unknown)(path, ...handlers);
          return proxy;
        };
      }
      if (name === 'route') {
        return (path: string) => {
          const route = target.route(path);
          const recorded = new Proxy(route, {
            get(r, method, rr) {
              if (!isMethod(method)) return Reflect.get(r, method, rr) as unknown;
              return (...handlers: unknown[]) => {
                into.push({ method, path });
                (r[method] as (...args: unknown[]) => unknown)(...handlers);
                return recorded;
              };
            },
          });
          return recorded;
        };
      }
      return Reflect.get(target, name, receiver) as unknown;
    },
  });
  return proxy;
}
