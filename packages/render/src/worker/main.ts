import { PyError, renderTemplate, TemplateError } from '@patchbay/jinja';
import { SyncChannel } from '../channel.js';
import type { RenderReply, RenderRequest, ToRenderer } from '../messages.js';
import { Bridge } from './bridge.js';
import { HeapMeter } from './heap-meter.js';
import { HostScope, ModelHost, QuerySetHost } from './hosts.js';

/**
 * A template process: renders one request at a time, reaching the database only through the bridge (fd 3, to the
 * server that started it). It runs no event loop: it blocks reading its next request. The server ends it (and starts
 * another) when a render takes too long; a render that exhausts its heap ends this process, never the server.
 */
const channel = new SyncChannel(3);
const bridge = new Bridge(channel);
let models: Record<string, Record<string, string>> | undefined;

/** NetBox's context: every model class by app label, then the data (which may replace an app), then the objects. */
function contextOf(request: RenderRequest, scope: HostScope): Record<string, unknown> {
  const context: Record<string, unknown> = {};
  if (request.models) models ??= bridge.call('models');
  for (const [app, classes] of Object.entries(request.models ? models! : {})) {
    context[app] = Object.fromEntries(Object.entries(classes).map(([name, key]) => [name, new ModelHost(scope, key)]));
  }
  // Defined, not assigned: a `__proto__` key in the data is data like any other.
  for (const [key, value] of Object.entries(request.data)) Object.defineProperty(context, key, { value, enumerable: true, writable: true, configurable: true });
  for (const [name, row] of Object.entries(request.objects)) context[name] = row ? scope.host(row, { root: name, refs: [] }) : null;
  for (const [name, query] of Object.entries(request.querysets)) context[name] = new QuerySetHost(scope, query);
  return context;
}

/** A printed value that would start a new line of a webhook's headers, and so a header of its own. */
function refuseLineBreaks(text: string): void {
  if (/[\r\n\0]/.test(text)) throw new PyError('ValueError', `a printed value holds a line break, which would add a header: ${JSON.stringify(text.slice(0, 80))}`);
}

function render(request: RenderRequest, scope: HostScope): RenderReply {
  bridge.begin(request.preloaded);
  try {
    const output = renderTemplate(request.source, contextOf(request, scope), {
      params: request.params,
      maxOutput: request.maxOutput,
      load: (name) => bridge.call('template', name),
      meter: new HeapMeter(),
      printed: request.singleLineValues ? refuseLineBreaks : undefined,
    });
    return { ok: true, output };
  } catch (err) {
    if (err instanceof TemplateError) return { ok: false, error: err.message, line: err.line };
    // V8's own refusals (an array or string past its largest size) say so as a template's error.
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}

// Loaded: the server starts a render's clock from here, not from the process's start.
channel.write({ kind: 'ready' });
for (let message = channel.read() as ToRenderer | undefined; message; message = channel.read() as ToRenderer | undefined) {
  if (message.kind !== 'render') continue;
  const scope = new HostScope(bridge);
  channel.write({ kind: 'done', reply: { ...render(message.request, scope), calls: bridge.plan, read: scope.read } });
}
// The server closed its end: it stopped, or died.
process.exit(0);
