import { createHmac } from 'node:crypto';
import { Coalesced, PATCHBAY_VERSION, Services, type JobRun, type JsonObject, type PluginContext, type RunAttempt } from 'patchbay';
import { WebhookDelivery } from '../models/webhook-delivery.js';
import { Webhook } from '../models/webhook.js';
import { deliveryMetrics } from './delivery-metrics.js';
import { send } from './http-send.js';
import { eachAtMost } from './lanes.js';
import { recordOutboxed } from './outbox.js';
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

/** A delivery job's deliveries: `deliveries`, or the one `delivery` of a job enqueued before jobs took several. */
export function deliveryIds(data: unknown): number[] {
  const { deliveries, delivery } = data as { deliveries?: number[]; delivery?: number };
  return deliveries ?? (delivery === undefined ? [] : [delivery]);
}

/**
 * Records the job's deliveries its write left in the outbox (a job enqueued before deliveries waited there has none),
 * after `turn` (in a process answering requests, its turn behind them: recording is background work too).
 */
async function recordFromOutbox(data: unknown, ctx: PluginContext, turn?: () => Promise<void>): Promise<void> {
  const { outbox } = data as { outbox?: string };
  if (outbox === undefined) return;
  await turn?.();
  await recordOutboxed(ctx.db, outbox);
}

/** A delivery to send: its stored context, the attempts it made, its webhook's row. */
interface Due {
  id: number;
  made: number;
  context: JsonObject;
  webhook: Record<string, unknown>;
}

/** A delivery's outcome as the log records it. */
interface Outcome {
  id: number;
  status: 'delivered' | 'failed' | 'pending';
  attempt: Attempt;
}

/** The deliveries of `ids` not delivered yet (a failed one is sent again when its job is requeued), in id order. */
async function due(ctx: PluginContext, ids: number[]): Promise<Due[]> {
  const { rows } = (await ctx.db.raw(
    `select d.id, d.context, jsonb_array_length(d.attempts) as made, to_jsonb(w) as webhook
       from ?? d join ?? w on w.id = d.webhook_id where d.id = any(?) and d.status <> 'delivered' order by d.id`,
    [WebhookDelivery.table, Webhook.table, ids],
  )) as { rows: Due[] };
  return rows;
}

/** Renders, signs and sends one delivery's request; the attempt as its log keeps it. */
async function attemptDelivery(delivery: Due, number: number, ctx: PluginContext): Promise<Attempt> {
  const { webhook } = delivery;
  const started = new Date();
  const attempt: Attempt = { attempt: number, started: started.toISOString(), duration_ms: 0, status_code: null, error: null, response: null };
  try {
    const request = await build(webhook, delivery.context, ctx);
    if (webhook.secret) request.headers['X-Hook-Signature'] = signature(request.body, String(webhook.secret));
    request.headers['User-Agent'] ??= `Patchbay/${PATCHBAY_VERSION}`;
    // Receivers tell a retry of the same delivery (after a worker died mid-request) from a new event by this.
    request.headers['X-Patchbay-Delivery'] = String(delivery.id);
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
  return attempt;
}

/** Failures a batch's error names one by one; the rest are counted. */
const NAMED_FAILURES = 5;

/** A delivery marked as sending an attempt. */
interface Mark {
  id: number;
  attempt: number;
}

/** What a delivery job writes of its deliveries: an attempt's outcome, a mark that one is being sent. */
interface Written {
  outcome?: Outcome;
  mark?: Mark;
}

/**
 * The delivery job: records its deliveries from the outbox (on its first run), then sends each of them not delivered
 * yet, JOB_CONCURRENCY at once, each rendered from its
 * stored context, signed, and recorded as it ends; each waits its turn behind the requests of a process answering
 * them (`Services.requests`). Before a request goes out its delivery is marked as sending that
 * attempt, so that if this process dies the attempts under way are logged as such (and only those). What the lanes
 * write meanwhile goes out together, one statement at a time: a lane's outcome with its next mark, and those of
 * the lanes ending together. A failure makes the job fail once all its deliveries ended, so the queue runs it again
 * (with backoff) for those not delivered, until its attempts run out: the last one marks them failed.
 */
export async function deliverWebhooks(data: unknown, ctx: PluginContext, run: JobRun): Promise<void> {
  const requests = ctx.services.get(Services.requests);
  await recordFromOutbox(data, ctx, () => requests.yieldToRequests());
  const deliveries = await due(ctx, deliveryIds(data));
  const writes = new Coalesced<Written>((items) => record(
    ctx, items.flatMap((w) => (w.outcome ? [w.outcome] : [])), items.flatMap((w) => (w.mark ? [w.mark] : [])),
  ));
  // Outcomes are written in order before the lane's next mark, which it waits for; the last ones, before the job ends.
  const recorded: Promise<void>[] = [];
  const failures: string[] = [];
  // A lane's failure (a statement's) is the job's, once every outcome under way was written.
  const lanes = await eachAtMost(deliveries, ctx.settings.JOB_CONCURRENCY, async (delivery) => {
    await requests.yieldToRequests();
    const number = delivery.made + 1;
    await writes.add({ mark: { id: delivery.id, attempt: number } });
    const attempt = await attemptDelivery(delivery, number, ctx);
    const ok = attempt.error === null;
    const outcome = writes.add({ outcome: { id: delivery.id, attempt, status: ok ? 'delivered' : run.final ? 'failed' : 'pending' } });
    // Its failure is the job's, once every lane ended (it also fails the statement of the lane's next mark).
    outcome.catch(() => undefined);
    recorded.push(outcome);
    if (!ok) failures.push(deliveries.length === 1 ? attempt.error! : `delivery ${delivery.id}: ${attempt.error!}`);
  }).then(() => undefined, (reason: unknown) => ({ reason }));
  const written = (await Promise.allSettled(recorded)).find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (lanes) throw lanes.reason;
  if (written) throw written.reason;
  if (failures.length === 1 && deliveries.length === 1) throw new Error(failures[0]);
  if (failures.length) {
    const more = failures.length > NAMED_FAILURES ? `; and ${failures.length - NAMED_FAILURES} more` : '';
    throw new Error(`${failures.length} of ${deliveries.length} deliveries failed (each one's log has its attempts): ${failures.slice(0, NAMED_FAILURES).join('; ')}${more}`);
  }
}

/**
 * Adds each outcome's attempt to its delivery's log (once: a second report of the same attempt is ignored), and marks
 * the deliveries of `marks` as sending their attempt; one statement (each update alone when the other has nothing to
 * do: a single delivery's mark and outcome waited 13 ms instead of 5 in the bench, as one statement of both).
 */
async function record(ctx: PluginContext, outcomes: Outcome[], marks: Mark[] = []): Promise<void> {
  const metrics = deliveryMetrics(ctx);
  for (const { status, attempt } of outcomes) {
    const result = status === 'pending' ? 'retrying' : status;
    metrics.attempts.inc({ result });
    if (attempt.duration_ms !== null) metrics.seconds.observe({ result }, attempt.duration_ms / 1000);
  }
  const mark = `update ?? d set sending = s.attempt from jsonb_to_recordset(?::jsonb) as s(id int, attempt int) where d.id = s.id`;
  const log = `update ?? d set status = o.status, attempts = d.attempts || jsonb_build_array(o.attempt), sending = null,
       completed = case when o.status = 'pending' then null else now() end
     from jsonb_to_recordset(?::jsonb) as o(id int, status text, attempt jsonb)
     where d.id = o.id and not d.attempts @> jsonb_build_array(jsonb_build_object('attempt', o.attempt -> 'attempt'))`;
  const marking = [WebhookDelivery.table, JSON.stringify(marks)];
  const logging = [WebhookDelivery.table, JSON.stringify(outcomes)];
  if (!outcomes.length) await ctx.db.raw(mark, marking);
  else if (!marks.length) await ctx.db.raw(log, logging);
  else await ctx.db.raw(`with marked as (${mark}) ${log}`, [...marking, ...logging]);
}

/**
 * A run of the job whose process died before it reported (killed, out of memory, hung past JOB_LOCK_SECONDS): each
 * delivery it was sending logs that attempt as ended so, and fails once it was the last; the queue then runs the
 * job again for the others. An attempt under way may have reached the receiver: a retry carries the same
 * `X-Patchbay-Delivery`. When the job has no run left, the deliveries it never sent fail too, saying so (a requeue of
 * the job sends them).
 */
export async function abandonedDeliveries(data: unknown, ctx: PluginContext, run: RunAttempt): Promise<void> {
  await recordFromOutbox(data, ctx);
  const { rows } = (await ctx.db.raw(
    `select id, sending, jsonb_array_length(attempts) as made from ?? where id = any(?) and status <> 'delivered' and (sending is not null or ?)`,
    [WebhookDelivery.table, deliveryIds(data), run.final],
  )) as { rows: { id: number; sending: number | null; made: number }[] };
  const ended = (number: number, error: string): Attempt => ({ attempt: number, started: null, duration_ms: null, status_code: null, error, response: null });
  await record(ctx, rows.map(({ id, sending, made }) => (sending === null
    ? { id, status: 'failed', attempt: ended(made + 1, `Not sent: the process running attempt ${run.attempt} of its job ended first, and the job has no attempt left.`) }
    : { id, status: run.final ? 'failed' : 'pending', attempt: ended(sending, `The process sending attempt ${sending} ended before it finished (killed, out of memory, or stopped answering).`) })));
}
