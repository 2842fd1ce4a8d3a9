import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { Db } from 'patchbay';
import { EventRule } from '../models/event-rule.js';
import { WebhookDelivery } from '../models/webhook-delivery.js';
import { Webhook } from '../models/webhook.js';

/**
 * Where a write leaves its webhook deliveries: one row per delivery job, in the write's transaction, with the ids the
 * deliveries will have and their rows as deflated JSON; the job records them as it starts. A hundred deliveries cost
 * the write one small row instead of a hundred rows with their JSON, five indexes and three foreign keys: their
 * contexts, 130 KB of JSON, deflate to about 4 KB in a fifth of a millisecond (synchronously: the thread pool's round
 * trip costs the event loop more than the work).
 */
const OUTBOX = 'extras_webhookoutbox';

/** Fast and still about 30 times smaller: what the write pays for matters more than the last bytes. */
const LEVEL = 1;

/** A delivery as the write knows it: what its row will hold, but for its id, status, attempts and job. */
export interface OutboxDelivery {
  webhook_id: number;
  event_rule_id: number;
  event: string;
  /** Every model a rule can name has one. */
  object_type_id: number | undefined;
  object_id: number;
  request_id: string;
  /** The template context (the default body). */
  context: Record<string, unknown>;
}

/** A delivery job's deliveries: the ids they have (or will have, once recorded), in order; its outbox row, if any. */
export interface DeliveryJob {
  job: string;
  ids: number[];
  /** The outbox row holding them while they are not recorded (int8, as node-postgres gives it: text). */
  outbox?: string;
}

/**
 * Writes each job's deliveries as one outbox row in `db` (the write's transaction), drawing their ids from the
 * deliveries' sequence (looked up once: `offset 0` keeps it from being inlined into every row).
 */
export async function storeOutbox(db: Db, jobs: { job: string; deliveries: OutboxDelivery[] }[]): Promise<DeliveryJob[]> {
  const packed = jobs.map((j) => deflateRawSync(JSON.stringify(j.deliveries), { level: LEVEL }));
  const { rows } = (await db.raw(
    `insert into ?? (job, ids, deliveries)
     select v.job, array(select nextval(s.seq)::int from generate_series(1, v.n) order by 1), v.deliveries
     from (select pg_get_serial_sequence(?, 'id')::regclass as seq offset 0) s, unnest(?::text[], ?::int[], ?::bytea[]) as v(job, n, deliveries)
     returning id as outbox, job, ids`,
    [OUTBOX, WebhookDelivery.table, jobs.map((j) => j.job), jobs.map((j) => j.deliveries.length), packed],
  )) as { rows: DeliveryJob[] };
  return rows;
}

/** The deliveries of an outbox row, as their JSON text. */
const unpacked = (deliveries: Buffer): string => inflateRawSync(deliveries).toString('utf8');

/**
 * Records the deliveries of outbox row `id`, pending, in the transaction that deletes the row: once, however often a
 * job's runs ask (a later run finds them recorded). Their JSON is read as rows of the delivery table, with its types. They keep the write's time as their creation. A webhook or rule
 * deleted since the write (or since its process last loaded the rules) makes no delivery, as it would have deleted
 * it or made none.
 */
export async function recordOutboxed(db: Db, id: string): Promise<void> {
  await db.transaction(async (trx) => {
    const { rows: [row] } = (await trx.raw(`delete from ?? where id = ? returning job, ids, created, deliveries`, [OUTBOX, id])) as {
      rows: { job: string; ids: number[]; created: Date; deliveries: Buffer }[];
    };
    if (!row) return;
    await trx.raw(
      `insert into ?? (id, webhook_id, event_rule_id, event, object_type_id, object_id, request_id, status, attempts, context, job, created, last_updated)
       select (?::int[])[v.ordinality], w.id, r.id, v.event, v.object_type_id, v.object_id, v.request_id, 'pending', '[]', v.context, ?, ?, now()
       from rows from (json_populate_recordset(null::??, ?::json)) with ordinality as v
       join ?? w on w.id = v.webhook_id join ?? r on r.id = v.event_rule_id`,
      [WebhookDelivery.table, row.ids, row.job, row.created, WebhookDelivery.table, unpacked(row.deliveries), Webhook.table, EventRule.table],
    );
  });
}

/** Every job whose deliveries wait in the outbox, oldest first (enqueued again at start). */
export async function outboxedJobs(db: Db): Promise<DeliveryJob[]> {
  const { rows } = (await db.raw(`select id as outbox, job, ids from ?? order by id`, [OUTBOX])) as { rows: DeliveryJob[] };
  return rows;
}

/** The deliveries the outbox holds for `jobs`, with their job and id (for the tasks page). */
export async function outboxedDeliveries(db: Db, jobs: string[]): Promise<(OutboxDelivery & { job: string; id: number })[]> {
  const { rows } = (await db.raw(`select job, ids, deliveries from ?? where job = any(?)`, [OUTBOX, jobs])) as {
    rows: { job: string; ids: number[]; deliveries: Buffer }[];
  };
  return rows.flatMap(({ job, ids, deliveries }) => (JSON.parse(unpacked(deliveries)) as OutboxDelivery[]).map((d, n) => ({ ...d, job, id: ids[n] })));
}
