import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

/** Every TypeScript file under `dir`. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : sources(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** A listener attached to a request, a response, a socket or a process's output stream: `res.once('close', …`. */
const ATTACH = /\b(req|res|request|response|socket|outgoing|incoming|stdout|stderr)!?\.(on|once|addListener|prependListener|prependOnceListener)\(\s*'[^']+',\s*([^\n]*)/g;

describe('listeners on requests, responses and sockets', () => {
  it('are all guarded: what one throws is handed on, never an uncaught exception that ends the process', () => {
    const unguarded: string[] = [];
    for (const file of ['kernel', 'testing', 'cli', 'plugins', 'examples', 'packages'].flatMap((dir) => sources(join(ROOT, dir)))) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(ATTACH)) {
        const listener = match[3];
        // `guarded(…)` itself, or a name bound to one in the same file.
        const name = /^([A-Za-z_$][\w$]*)\)/.exec(listener)?.[1];
        const ok = listener.startsWith('guarded(') || (name !== undefined && new RegExp(`\\b${name} = guarded\\(`).test(text));
        if (!ok) unguarded.push(`${relative(ROOT, file)}:${text.slice(0, match.index).split('\n').length}: ${match[0].trim()}`);
      }
    }
    expect(unguarded).toEqual([]);
  });

  it('are found by that check (it reads the files it should)', () => {
    const sample = "  res.once('close', () => hooks.forEach((h) => h.response(req, res)));\n  socket.on('data', guarded((d) => push(d), fail));";
    expect([...sample.matchAll(ATTACH)].map((m) => m[3].startsWith('guarded('))).toEqual([false, true]);
  });
});
