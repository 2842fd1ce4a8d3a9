import type { Request, RequestHandler, Response } from 'express';

/** Runs around every request the server answers (metrics, access logs, a plugin's own accounting). */
export interface RequestHook {
  /** Once the request is authenticated, before it is routed; throwing an HttpError answers it. */
  request?(req: Request): void | Promise<void>;
  /** Once its response is sent (or the client went away), with the time it took. */
  response?(req: Request, res: Response, ms: number): void;
}

export interface MountOptions {
  /**
   * Only for logged-in users when LOGIN_REQUIRED (or anyone when it is false): a browser is sent to the login
   * page, other clients get the API's 403. Paths under `/api/` follow the API's rules whatever this says.
   */
  login?: boolean;
  /** What is sent here only reads, whatever the method (GraphQL's POSTs): read-only tokens may send it. */
  readOnly?: boolean;
}

/**
 * How the kernel's mechanisms (the REST API, OpenAPI, GraphQL) and plugins put things on the HTTP server: paths
 * anywhere (`/graphql/`, `/metrics`), served after the common pipeline (request id, host check, body,
 * authentication), and hooks around every request. What is mounted first is matched first.
 */
export interface HttpSurface {
  mount(path: string, handler: RequestHandler, options?: MountOptions): void;
  hook(hook: RequestHook): void;
}

export interface Mount {
  path: string;
  handler: RequestHandler;
  options: MountOptions;
}

/** What the mechanisms and plugins asked for, in order, for the app's assembly. */
export class MountList implements HttpSurface {
  readonly mounts: Mount[] = [];
  readonly hooks: RequestHook[] = [];

  mount(path: string, handler: RequestHandler, options: MountOptions = {}): void {
    if (!path.startsWith('/')) throw new Error(`Mount path "${path}" must start with /`);
    this.mounts.push({ path, handler, options });
  }

  hook(hook: RequestHook): void {
    this.hooks.push(hook);
  }
}
