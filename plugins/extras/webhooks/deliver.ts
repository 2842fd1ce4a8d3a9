import { createHmac } from 'node:crypto';
import { PATCHBAY_VERSION, type JobRun, type JsonObject, type PluginContext, type RunAttempt } from 'patchbay';
import { WebhookDelivery } from '../models/webhook-delivery.js';
import { Webhook } from '../models/webhook.js';
import { deliveryMetrics } from './delivery-metrics.js';
import { send } from './http-send.js';
import { pythonJson } from './python-json.js';

/** One attempt as the delivery log keeps it (one whose process died has no start or duration). */
interface Attempt {
  attempt: number;
  started: string | null;
  duration_ms: number | null;
  status_code: number | null;
  error: string | null;
  response: string | null;
}

/** `X-Hook-Signature`: lowercase hex HMAC-SHA512 of the exact body bytes, keyed with the secret. */
export function signature(body: Buffer, secret: string): string {
  return createHmac('sha512', Buffer.from(secret, 'utf8')).update(body).digest('hex');
}

/**
 * The rendered request: URL, headers (content type, then the additional headers, which win) and body. The headers
 * render as one template, each line a header, as NetBox's; a value printed into them may not hold a line break (an
 * object named `"a\nX-Evil: 1"` would add a header): that fails the attempt, saying so.
 */
async function build(webhook: Record<string, unknown>, context: JsonObject, ctx: PluginContext) {
  // Text without template syntax renders as itself (less the one trailing newline Jinja drops): no render.
  const render = async (source: string, singleLineValues = false) => (/\{[{%#]/.test(source)
    ? ctx.templates.render({ purpose: 'webhook', source, data: context, models: false, singleLineValues }, ctx.system)
    : source.replace(/\r?\n$/, ''));
  const headers: Record<string, string> = { 'Content-Type': String(webhook.http_content_type) };
  if (webhook.additional_headers) {
    for (const line of (await render(String(webhook.additional_headers), true)).split(/\r\n|\r|\n/)) {
      if (!line.trim()) continue;
      const colon = line.indexOf(':');
      if (colon < 0) throw new Error(`Invalid header line (expected "Name: Value"): ${JSON.stringify(line)}`);
      headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
    }
  }
  const url = await render(String(webhook.payload_url));
  if (/[\0-\x1f\x7f]/.test(url)) throw new Error(`The rendered URL holds a control character (a line break?): ${JSON.stringify(url)}`);
  const text = webhook.body_template ? await render(String(webhook.body_template)) : pythonJson(context);
  return { url, headers, body: Buffer.from(text, 'utf8') };
}

const message = (err: unknown) => (err instanceof Error ? (err as { body?: { detail?: string } }).body?.detail ?? err.message : String(err));

/**
 * The delivery job: renders the webhook's request from the stored context, signs and sends it, and records the
 * attempt. A failure throws, so the queue tries again (with backoff) until its attempts run out; the last one marks
 * the delivery failed. A delivery already delivered (a job run twice after a crash) is not sent again.
 */
export async function deliverWebhook(data: unknown, ctx: PluginContext, run: JobRun): Promise<void> {
  const { delivery: id } = data as { delivery: number };
  const delivery = (await ctx.db(WebhookDelivery.table).where('id', id).first()) as { status: string; webhook_id: number; context: JsonObject } | undefined;
  if (!delivery || delivery.status === 'delivered') return;
  const webhook = (await ctx.db(Webhook.table).where('id', delivery.webhook_id).first()) as Record<string, unknown> | undefined;
  if (!webhook) return;
  const started = new Date();
  const attempt: Attempt = { attempt: run.attempt, started: started.toISOString(), duration_ms: 0, status_code: null, error: null, response: null };
  try {
    const request = await build(webhook, delivery.context, ctx);
    if (webhook.secret) request.headers['X-Hook-Signature'] = signature(request.body, String(webhook.secret));
    request.headers['User-Agent'] ??= `Patchbay/${PATCHBAY_VERSION}`;
    // Receivers tell a retry of the same delivery (after a worker died mid-request) from a new event by this.
    request.headers['X-Patchbay-Delivery'] = String(id);
    const answer = await send({
      method: String(webhook.http_method), ...request, timeoutMs: ctx.settings.WEBHOOK_TIMEOUT,
      sslVerification: webhook.ssl_verification !== false, caFilePath: (webhook.ca_file_path as string | null) || null,
      refuseLocal: ctx.settings.WEBHOOK_REFUSE_LOCAL, keepBytes: ctx.settings.WEBHOOK_RESPONSE_BYTES,
    });
    attempt.status_code = answer.status;
    attempt.response = answer.head.toString('utf8');
    if (answer.status < 200 || answer.status > 299) attempt.error = `Status ${answer.status} returned, webhook FAILED to process.`;
  } catch (err) {
    attempt.error = message(err);
  }
  attempt.duration_ms = Date.now() - started.getTime();
  const ok = attempt.error === null;
  await record(ctx, id, attempt, ok ? 'delivered' : run.final ? 'failed' : 'pending');
  if (!ok) throw new Error(attempt.error!);
}

/** Adds an attempt to the delivery's log (once: a second report of the same attempt is ignored) with its outcome. */
async function record(ctx: PluginContext, id: number, attempt: Attempt, status: 'delivered' | 'failed' | 'pending'): Promise<void> {
  const result = status === 'pending' ? 'retrying' : status;
  const metrics = deliveryMetrics(ctx);
  metrics.attempts.inc({ result });
  if (attempt.duration_ms !== null) metrics.seconds.observe({ result }, attempt.duration_ms / 1000);
  await ctx.db(WebhookDelivery.table)
    .where('id', id)
    .whereRaw('not attempts @> ?::jsonb', [JSON.stringify([{ attempt: attempt.attempt }])])
    .update({
      status,
      attempts: ctx.db.raw('attempts || ?::jsonb', [JSON.stringify([attempt])]),
      completed: status === 'pending' ? null : ctx.db.fn.now(),
    });
}

/**
 * An attempt whose process died before it reported (killed, out of memory, hung past JOB_LOCK_SECONDS): the log says
 * so, and the delivery fails once it was the last. It may have reached the receiver: a retry carries the same
 * `X-Patchbay-Delivery`.
 */
export async function abandonedDelivery(data: unknown, ctx: PluginContext, run: RunAttempt): Promise<void> {
  const { delivery: id } = data as { delivery: number };
  const error = `The process sending attempt ${run.attempt} ended before it finished (killed, out of memory, or stopped answering).`;
  const attempt: Attempt = { attempt: run.attempt, started: null, duration_ms: null, status_code: null, error, response: null };
  await record(ctx, id, attempt, run.final ? 'failed' : 'pending');
}
