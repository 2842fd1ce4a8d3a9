import type { Knex } from '@mikro-orm/knex';
import type { Settings } from '../config/settings.js';
import type { Batcher } from '../model/batch.js';
import type { Model } from '../model/model.js';
import type { ModelRegistry } from '../model/registry.js';

export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** A database row as it comes back from PostgreSQL: column name → value. */
export type Row = Record<string, unknown>;

/** A query runner: the pool, or the transaction of the current write. */
export type Db = Knex | Knex.Transaction;

/** Field-keyed validation messages, NetBox style: `{"name": ["This field is required."]}`. */
export type ErrorMap = Record<string, string[]>;

export class ValidationError extends Error {
  constructor(readonly errors: ErrorMap) {
    super(Object.entries(errors).map(([k, v]) => `${k}: ${v.join(' ')}`).join('; '));
  }
  static of(key: string, message: string): ValidationError {
    return new ValidationError({ [key]: [message] });
  }
}

/** Validation failures of a write of several items, aligned with them (`{}` for an item without errors). */
export class ItemErrors extends Error {
  constructor(readonly items: ErrorMap[]) {
    super(items.map((e, i) => (Object.keys(e).length ? `item ${i}: ${new ValidationError(e).message}` : '')).filter(Boolean).join('; '));
  }

  /** The failure of a one-item write, as a plain ValidationError. */
  first(): ValidationError {
    return new ValidationError(this.items.find((e) => Object.keys(e).length) ?? {});
  }
}

/**
 * Values computed once per request or write and shared by every field that needs them (custom field
 * definitions, say). A write forgets what it read once it stored its objects, and remembers what it stored.
 */
export class Memo {
  private readonly values = new Map<string, Promise<unknown>>();
  /** What the write stored itself (the links it inserted): the database holds just that until it stores again. */
  private readonly written = new Map<string, unknown>();

  get<T>(key: string, compute: () => Promise<T>): Promise<T> {
    let value = this.values.get(key) as Promise<T> | undefined;
    if (!value) {
      value = compute();
      this.values.set(key, value);
      // A failed computation is not remembered.
      value.catch(() => this.values.delete(key));
    }
    return value;
  }

  /** The value computed under `key` since the write last stored, if one was: never computes it. */
  held<T>(key: string): Promise<T> | undefined {
    return this.values.get(key) as Promise<T> | undefined;
  }

  /** Keeps a value a store has just written, so that the reads after it (change records, the answer) need not read it back. */
  remember(key: string, value: unknown): void {
    this.written.set(key, value);
  }

  /** Forgets what the write stored under `key` (it deleted that object). */
  forget(key: string): void {
    this.written.delete(key);
  }

  /** Whether nothing is remembered (most reads): lookups in `recall` are then not worth making. */
  get remembersNothing(): boolean {
    return this.written.size === 0;
  }

  /** The value stored under `key` by this write, if it stored one. */
  recall<T>(key: string): T | undefined {
    return this.written.get(key) as T | undefined;
  }

  /** Forgets what was read (a store outdates it); what the write stored stays true. */
  clear(): void {
    this.values.clear();
  }
}

/** What rendering needs: where to read and how to build absolute URLs. */
export interface RenderContext {
  db: Db;
  registry: ModelRegistry;
  settings: Settings;
  /** Rendering the response to the request that created the objects (secrets shown once). */
  created?: boolean;
  /** e.g. `http://127.0.0.1:8000`; empty for host-less rendering (events). */
  baseUrl: string;
  memo: Memo;
  /** Where renders running side by side (one route's, over several models) gather their nested loads: one query a model. */
  loads?: Batcher;
  /**
   * Which of `ids` the reader may view, for fields that may point at any object (generic relations, custom
   * field objects): what the reader may not view renders as null. Absent: everything (events, the server).
   */
  viewable?(model: Model, ids: number[]): Promise<Set<number>>;
  /**
   * The objects of `model` the reader may view, as a subquery of their ids, where counts must leave the others out
   * (GraphQL); absent, or null for a reader who may view them all: every object counts (REST, as NetBox counts).
   */
  countable?(model: Model): Promise<{ ids: Knex.QueryBuilder } | null>;
  /**
   * Objects of `model` nothing refers to yet: a write created them and changed nothing else, so every count of
   * theirs is 0 without a query.
   */
  unreferenced?: { model: string; ids: ReadonlySet<number> };
}

/** Rendering modes: the full object, `?brief=1`, or nested inside another object. */
export type RenderMode = 'full' | 'brief' | 'nested';

/** Writes a field's part of one rendered object. */
export type FieldRenderer = (row: Row, out: JsonObject) => void;
