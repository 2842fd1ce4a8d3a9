import { appendTo, type PluginContext, type TaskSubject } from 'patchbay';
import { WebhookDelivery } from '../models/webhook-delivery.js';
import { Webhook } from '../models/webhook.js';
import { outboxedDeliveries } from './outbox.js';

/** Objects a task's subjects name one by one; the rest are counted. */
const NAMED_OBJECTS = 5;

interface DeliveryRow {
  job: string;
  webhook_id: number;
  webhook: string;
  payload_url: string;
  event: string;
  display: string | null;
  url: string | null;
}

/** A path of this server for one of its API's URLs (absolute when the write came with a host). */
const pathOf = (url: string | null) => (url ? new URL(url, 'http://server').pathname : undefined);

/**
 * What delivery tasks are about, for the background tasks page: their webhooks (linked), the URLs they send to, the
 * events, and the objects (linked, the first few by name), all from the deliveries that name the task in `job`, recorded
 * or still in the outbox.
 */
export async function deliverySubjects(tasks: { id: string }[], ctx: PluginContext): Promise<Map<string, TaskSubject[]>> {
  const jobs = tasks.map((t) => t.id);
  const outboxed = (await outboxedDeliveries(ctx.db, jobs)).map(({ job, id, webhook_id, event, context }) => {
    const data = (context.data ?? {}) as { display?: string; url?: string };
    return { job, id, webhook_id, event, display: data.display ?? null, url: data.url ?? null };
  });
  const { rows } = (await ctx.db.raw(
    `select d.job, w.id as webhook_id, w.name as webhook, w.payload_url, d.event, d.display, d.url
     from (select job, id, webhook_id, event, context -> 'data' ->> 'display' as display, context -> 'data' ->> 'url' as url from ?? where job = any(?)
       union all select * from json_to_recordset(?::json) as o(job text, id int, webhook_id int, event text, display text, url text)) d
     join ?? w on w.id = d.webhook_id order by d.id`,
    [WebhookDelivery.table, jobs, JSON.stringify(outboxed), Webhook.table],
  )) as { rows: DeliveryRow[] };
  const byTask = new Map<string, DeliveryRow[]>();
  for (const row of rows) appendTo(byTask, row.job, row);
  return new Map([...byTask].map(([job, deliveries]) => {
    const distinct = <T,>(pick: (d: DeliveryRow) => T) => [...new Map(deliveries.map((d) => [JSON.stringify(pick(d)), pick(d)])).values()];
    const objects = deliveries.slice(0, NAMED_OBJECTS).map((d): TaskSubject => ({ label: 'Object', text: d.display ?? '(deleted)', href: pathOf(d.url) }));
    const more = deliveries.length - objects.length;
    return [job, [
      ...distinct((d) => ({ label: 'Webhook', text: d.webhook, href: `/api/extras/webhooks/${d.webhook_id}/` })),
      ...distinct((d) => ({ label: 'URL', text: d.payload_url })),
      ...distinct((d) => ({ label: 'Event', text: d.event })),
      ...objects,
      ...(more > 0 ? [{ label: 'Objects', text: `and ${more} more` }] : []),
      { label: 'Deliveries', text: `${deliveries.length}`, href: `/api/extras/webhook-deliveries/?job=${encodeURIComponent(job)}` },
    ]];
  }));
}
