import type { Settings } from '../config/settings.js';
import type { Model } from '../model/model.js';
import type { ModelRegistry } from '../model/registry.js';
import type { Db, Memo, Row } from '../base/types.js';

/** Who writes: the user (if any) and the request the change belongs to. */
export interface Actor {
  userId: number | null;
  username: string;
  requestId: string;
}

/** How a reference is looked up. */
export interface ReferenceOptions {
  /** Only objects the writer may view count (references to any object: generic relations, custom field objects). */
  viewable?: boolean;
  /** Lock the object found by id, as `stored` with `lock` does (one read for both, when a rule locks it later). */
  lock?: boolean;
}

/** `create`; `update` (PUT: every required field); `partial` (PATCH). */
export type WriteMode = 'create' | 'update' | 'partial';

/** What every step of a write can use: the transaction, the models and the write's shared loaders. */
export interface WriteScope {
  db: Db;
  registry: ModelRegistry;
  settings: Settings;
  memo: Memo;
  actor: Actor;
  mode: WriteMode;
  /** A write the server makes itself (derived objects, jobs): read-only fields may be set, permissions are not checked. */
  internal: boolean;
  /**
   * Loads `key` together with the keys the write's other items ask the same loader for, so that N items cost
   * one query per round: `load` receives the distinct keys and returns their values in the same order.
   */
  batch<K, V>(loader: string, key: K, load: (keys: K[]) => Promise<V[]>): Promise<V>;
  /**
   * Resolves a related-object reference (an id, a numeric string or attributes) to one id of `model`;
   * `viewable`: only among the objects the writer may view (others are reported as not found).
   */
  resolve(model: Model, value: unknown, key: string, options?: ReferenceOptions): Promise<number>;
  /** Whether object `id` of `model` exists (and, with `viewable`, the writer may view it). */
  exists(model: Model, id: number, options?: ReferenceOptions): Promise<boolean>;
  /**
   * The stored row `id` of `model` (undefined when there is none), batched with the write's other items; `lock`
   * holds it until the write commits, for rules that read one object to decide about another.
   */
  stored(model: Model, id: number, options?: { lock?: boolean }): Promise<Row | undefined>;
  /** Work for once the write has committed (removing a replaced file). */
  afterCommit(work: () => Promise<void>): void;
  /** Work that undoes an effect outside the database (a written file) if the write does not commit. */
  onRollback(work: () => Promise<void>): void;
}

/** Parsing one item: the scope plus the stored row when updating. */
export interface WriteContext extends WriteScope {
  /** The stored row when updating, absent when creating. */
  instance?: Row;
}
