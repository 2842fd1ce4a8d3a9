import { HttpError } from '../base/errors.js';
import type { JsonObject, Row } from '../base/types.js';
import type { CounterMetric, HistogramMetric, MetricsDeclarations } from '../metrics/registry.js';
import type { DataAccess } from '../plugins/data.js';
import { RenderAborted, RenderPool, type ObjectQuery, type TemplateRow } from '@patchbay/render';
import { templateSource, type TemplateServices } from './source.js';

/** One render: the template, its environment's options, and what its context holds. */
export interface RenderInput {
  source: string;
  /** What the render is for, as the metrics count renders (`config_template`, `export_template`, `webhook`). */
  purpose: string;
  /** Keyword arguments of the Jinja2 environment (`trim_blocks`, …); null for none. */
  params?: JsonObject | null;
  /** JSON data, top-level keys becoming variables. */
  data?: JsonObject;
  /**
   * Objects by variable name (`device`), read from the database before the render; `row` when the caller already
   * read it through the same DataAccess (it is not read again).
   */
  objects?: Record<string, { model: string; id: number; row?: Row }>;
  /** Querysets by variable name (`queryset` of an export template). */
  querysets?: Record<string, ObjectQuery>;
  /** Model classes by app label in the context (default); false for a template that sees only its data (a webhook's). */
  models?: boolean;
  /** A value printed with `{{ … }}` may not hold a line break (a webhook's headers: it would add a header). */
  singleLineValues?: boolean;
  /** Other templates by name, for `{% include %}` and `{% import %}`. */
  templates?(name: string): Promise<string | undefined>;
}

/**
 * Renders Jinja2 templates (on nunjucks, extended to behave like Jinja2) in a sandbox in processes of their own, with a time
 * and an output limit. Models are reachable from templates (`dcim.Site.objects.filter(status="active")`, a device's
 * `interfaces.all()`), always read as the requesting user may read them.
 */
export class TemplateRenderer {
  private readonly pool: RenderPool;
  private readonly renders: CounterMetric<'purpose' | 'result'>;
  private readonly seconds: HistogramMetric<'purpose'>;
  private readonly waits: CounterMetric<'purpose'>;

  /** @internal The kernel makes one per server; plugins use `ctx.templates`. */
  constructor(private readonly services: TemplateServices, metrics: MetricsDeclarations) {
    const { settings } = services;
    this.pool = new RenderPool({
      workers: settings.TEMPLATE_WORKERS, timeoutMs: settings.TEMPLATE_TIMEOUT, memoryMb: settings.TEMPLATE_MEMORY_MB, maxOutput: settings.TEMPLATE_MAX_OUTPUT,
    });
    this.renders = metrics.counter({ name: 'patchbay_template_renders_total', help: 'Jinja2 renders, by purpose and result (ok, error).', labels: ['purpose', 'result'] });
    this.seconds = metrics.histogram({
      name: 'patchbay_template_render_seconds', help: 'Time of a Jinja2 render, by purpose, waiting for a template process included.', labels: ['purpose'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    });
    this.waits = metrics.counter({
      name: 'patchbay_template_bridge_waits_total',
      help: 'Reads a template waited on the server for, by purpose (those of a template\'s previous render are read ahead of the next).',
      labels: ['purpose'],
    });
  }

  /** The output; a template that fails to compile, raises, overruns or escapes its limits is a 400 saying why (and where). */
  async render(input: RenderInput, access: DataAccess): Promise<string> {
    const started = performance.now();
    let result = 'error';
    try {
      const output = await this.run(input, access);
      result = 'ok';
      return output;
    } finally {
      this.renders.inc({ purpose: input.purpose, result });
      this.seconds.observe({ purpose: input.purpose }, (performance.now() - started) / 1000);
    }
  }

  private async run(input: RenderInput, access: DataAccess): Promise<string> {
    const known = new Map<string, Row>();
    for (const { model, id, row } of Object.values(input.objects ?? {})) if (row) known.set(`${model}:${id}`, row);
    // Rows hold what renders of the template read (the rest is read when asked).
    const handler = templateSource(this.services, access, input.templates ?? (async () => undefined), known, this.pool.keysRead(input.source));
    // The objects the context names go with the request: a call fewer each.
    const objects: Record<string, TemplateRow | null> = {};
    for (const [name, { model, id }] of Object.entries(input.objects ?? {})) {
      objects[name] = (await handler({ method: 'get', args: [model, id] }).catch((err: Error) => {
        throw new HttpError(400, { detail: `An error occurred while rendering the template: ${err.message}` });
      })) as TemplateRow | null;
    }
    const request = {
      source: input.source,
      params: input.params ?? {},
      data: input.data ?? {},
      objects,
      querysets: input.querysets ?? {},
      models: input.models ?? true,
      maxOutput: this.services.settings.TEMPLATE_MAX_OUTPUT,
      singleLineValues: input.singleLineValues ?? false,
    };
    const reply = await this.pool.render(request, handler).catch((err: unknown) => {
      if (err instanceof RenderAborted) throw new HttpError(400, { detail: `An error occurred while rendering the template: ${err.message}` });
      throw err;
    });
    this.waits.inc({ purpose: input.purpose }, reply.asked ?? 0);
    if (reply.ok) return reply.output;
    const where = reply.line ? ` (line ${reply.line})` : '';
    throw new HttpError(400, { detail: `An error occurred while rendering the template${where}: ${reply.error}` });
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
