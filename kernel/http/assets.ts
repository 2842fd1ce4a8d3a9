import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import type { NextFunction, Request, Response } from 'express';
import { StoredBody } from './stored-body.js';

/** A file a page loads, from an installed package or the kernel's own assets. */
export interface Asset {
  file: string;
  /** A text to cut from the file as it is served. */
  cut?: string;
}

/**
 * The assets of a folder, by name, read on first request and served from memory (gzipped for the clients that
 * take it); anything else falls through.
 */
export function staticAssets(files: Record<string, Asset>) {
  const loaded = new Map<string, StoredBody>();
  const load = ({ file, cut }: Asset) => {
    const bytes = readFileSync(file);
    return new StoredBody(extname(file), cut ? Buffer.from(bytes.toString('utf8').replaceAll(cut, '')) : bytes, /\.(js|css)$/.test(file));
  };
  return (req: Request, res: Response, next: NextFunction) => {
    const asset = Object.hasOwn(files, req.path.slice(1)) ? files[req.path.slice(1)] : undefined;
    if (!asset || (req.method !== 'GET' && req.method !== 'HEAD')) return next();
    if (!loaded.has(asset.file)) loaded.set(asset.file, load(asset));
    loaded.get(asset.file)!.send(req, res.set('Cache-Control', 'public, max-age=3600'));
  };
}

/** The shell of a page that runs a packaged application (Swagger UI, ReDoc, GraphiQL). */
export function appPage(title: string, head: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} – Patchbay API</title>${head}</head>
<body style="margin:0">${body}</body></html>`;
}
