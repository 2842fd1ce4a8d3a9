import type { Request, RequestHandler, Response } from 'express';
import type { Json } from '../base/types.js';

/** Runs around every request the server answers (metrics, access logs, a plugin's own accounting). */
export interface RequestHook {
  /** Once the request is authenticated, before it is routed; throwing an HttpError answers it. */
  request?(req: Request): void | Promise<void>;
  /** Once its response is sent (or the client went away), with the time it took. */
  response?(req: Request, res: Response, ms: number): void;
}

/** Renders the API's JSON answers as pages when a browser asks for them (the browsable API). */
export interface PageRenderer {
  /** Sends `body` (the JSON answer, with its status) as a page; if that fails, sends `fallback()` (the JSON). */
  respond(req: Request, res: Response, status: number, body: Json, title: string, fallback: () => void): Promise<void>;
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

/** A page for people (GraphiQL, the API's documentation, the background tasks), linked from the API root. */
export interface PageLink {
  /** Where it is served (`/graphql/`). */
  path: string;
  /** Its name, as the link reads (`GraphiQL`). */
  title: string;
  /** What a person finds there, in a sentence. */
  description: string;
}

/**
 * How the kernel's mechanisms (the REST API, OpenAPI, GraphQL) and plugins put things on the HTTP server: paths
 * anywhere (`/graphql/`, `/metrics`), served after the common pipeline (request id, host check, body,
 * authentication), and hooks around every request. What is mounted first is matched first.
 */
export interface HttpSurface {
  mount(path: string, handler: RequestHandler, options?: MountOptions): void;
  hook(hook: RequestHook): void;
  /** The renderer of the API's answers for browsers: one per server. */
  pages(renderer: PageRenderer): void;
  /** Lists a page for people on the API root's page (the browsable API's). */
  link(page: PageLink): void;
  /** The pages linked so far, in order (read when a page is rendered: every plugin has linked its own by then). */
  readonly links: readonly PageLink[];
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
  readonly links: PageLink[] = [];
  renderer?: PageRenderer;

  mount(path: string, handler: RequestHandler, options: MountOptions = {}): void {
    if (!path.startsWith('/')) throw new Error(`Mount path "${path}" must start with /`);
    this.mounts.push({ path, handler, options });
  }

  hook(hook: RequestHook): void {
    this.hooks.push(hook);
  }

  link(page: PageLink): void {
    this.links.push(page);
  }

  pages(renderer: PageRenderer): void {
    if (this.renderer) throw new Error('Two plugins render the API as pages: enable one');
    this.renderer = renderer;
  }
}
