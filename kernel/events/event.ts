import type { Db, JsonObject } from '../base/types.js';

/** NetBox's event types of object changes (`job_*` events come from jobs). */
export const OBJECT_EVENT_TYPES = ['object_created', 'object_updated', 'object_deleted'] as const;
export type ObjectEventType = (typeof OBJECT_EVENT_TYPES)[number];
export const JOB_EVENT_TYPES = ['job_started', 'job_completed', 'job_failed', 'job_errored'] as const;
export const EVENT_TYPES = [...OBJECT_EVENT_TYPES, ...JOB_EVENT_TYPES] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** A committed change of one object, as the outbox keeps it: what NetBox's event queue holds. */
export interface ObjectEvent {
  type: EventType;
  /** `app.model` */
  model: string;
  id: number;
  /** When the change was made: ISO 8601 with microseconds and `+00:00`, as Python's `isoformat()`. */
  timestamp: string;
  userId: number | null;
  username: string;
  requestId: string;
  /** The object's REST representation after the change (before it, for deletes), with host-less URLs. */
  data: JsonObject;
  /** Model values before and after the change (as the change log has them); null before a create and after a delete. */
  snapshots: { prechange: JsonObject | null; postchange: JsonObject | null };
}

/** The write's transaction, as a receiver of its events sees it: what the receiver writes in it commits with the write. */
export interface EventClaim {
  db: Db;
  /** Work to run once the write committed, never if it rolled back (enqueueing the jobs whose rows the receiver wrote). */
  afterCommit(work: () => Promise<void>): void;
}

/** The last millisecond `isoTimestamp` formatted: a bulk write stamps thousands of events within a few. */
let lastStamp = { ms: Number.NaN, text: '' };

/** `2026-11-25T15:00:00.123000+00:00`: Python's `datetime.isoformat()` of an aware UTC time. */
export function isoTimestamp(date: Date = new Date()): string {
  const ms = date.getTime();
  if (ms !== lastStamp.ms) lastStamp = { ms, text: date.toISOString().replace(/\.(\d{3})Z$/, '.$1000+00:00') };
  return lastStamp.text;
}
