import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { renderTemplate } from '../jinja/index.js';
import { TemplateError } from '../jinja/errors.js';
import type { RenderReply, RenderRequest } from '../messages.js';
import { Bridge } from './bridge.js';
import { HostScope, ModelHost, QuerySetHost } from './hosts.js';

/**
 * A template worker thread: renders one request at a time, reaching the database only through the bridge. The main
 * thread ends it (and starts another) when a render takes too long or it runs out of memory.
 */
const { port, flag } = workerData as { port: MessagePort; flag: SharedArrayBuffer };
const bridge = new Bridge(port, new Int32Array(flag));
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
  for (const [name, { model, id }] of Object.entries(request.objects)) context[name] = scope.object(model, id);
  for (const [name, query] of Object.entries(request.querysets)) context[name] = new QuerySetHost(scope, query);
  return context;
}

function render(request: RenderRequest): RenderReply {
  try {
    const scope = new HostScope(bridge);
    const output = renderTemplate(request.source, contextOf(request, scope), {
      params: request.params,
      maxOutput: request.maxOutput,
      load: (name) => bridge.call('template', name),
    });
    return { ok: true, output };
  } catch (err) {
    if (err instanceof TemplateError) return { ok: false, error: err.message, line: err.line };
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}

parentPort!.on('message', (request: RenderRequest) => {
  parentPort!.postMessage(render(request));
});
// Loaded: the main thread starts a render's clock from here, not from the thread's start.
parentPort!.postMessage('ready');
