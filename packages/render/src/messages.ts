/** A JSON value, as the channel carries it. */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** An object a template reaches: its model, id, what it prints as, its values and the objects it refers to. */
export interface TemplateRow {
  model: string;
  id: number;
  display: string;
  /** Field values as stored (a choice's value, an address's text), by key. */
  values: JsonObject;
  /** Objects the row refers to (foreign keys, generic relations), by key; null when it refers to none. */
  refs: Record<string, { model: string; id: number } | null>;
  /**
   * Only the keys renders of the template read of its model (`RenderReply.read`): the object's other keys are read by a `get`
   * with `full`.
   */
  partial?: boolean;
}

/** What a template needs to know of a model: its name, and the lists its objects offer besides their values and refs. */
export interface ModelShape {
  /** Its class name as templates know it (`Site`), and its app label (`dcim`). */
  className: string;
  app: string;
  /** Lists of related objects it offers (`interfaces`, `tags`), with the model each lists. */
  lists: Record<string, string>;
  /** The keys its objects' rows may hold (values and refs): a partial row lacking one is read whole. */
  keys: string[];
}

/** Objects of a model a query names: all, those related to one object through a list, filtered by the API's filters. */
export interface ObjectQuery {
  model: string;
  via?: { model: string; id: number; list: string };
  /** Query-string filters, as a list endpoint takes them. */
  params: Record<string, string[]>;
}

/** The calls a render makes to the main thread, synchronously from the template's point of view. */
export interface BridgeCalls {
  list(query: ObjectQuery, offset: number, limit: number): TemplateRow[];
  count(query: ObjectQuery): number;
  /** The object as the render's rows are read, or with every key (`full`). */
  get(model: string, id: number, full?: boolean): TemplateRow | null;
  shape(model: string): ModelShape;
  /** Every model a template can name, as `app` → class names → model key. */
  models(): Record<string, Record<string, string>>;
  /** Another template's code, for include and import; undefined when there is none of that name. */
  template(name: string): string | undefined;
}

export type BridgeMethod = keyof BridgeCalls;

export interface BridgeRequest {
  method: BridgeMethod;
  args: Json[];
}

export type BridgeReply = { ok: true; value: unknown } | { ok: false; error: string };

/** How a render reached an object: a context variable's object, then the references followed from it (`site`). */
export interface Origin {
  root: string;
  refs: string[];
}

/**
 * A call a render made, as the next render of the same template can make it ahead of time: with an origin, a `get`
 * of the object it reaches, or a list or count through that object (its `via.id` is that object's); without, a
 * template by name, as it is.
 */
export interface PlannedCall {
  call: BridgeRequest;
  origin?: Origin;
}

/** One render: the code, the environment's options, JSON data, and objects or lists named in the context. */
export interface RenderRequest {
  source: string;
  params: JsonObject;
  data: JsonObject;
  /** Objects by variable name, read before the render as `get` reads them (null: none the reader may view). */
  objects: Record<string, TemplateRow | null>;
  querysets: Record<string, ObjectQuery>;
  /** Every model class by app label in the context (`dcim.Site.objects…`). */
  models: boolean;
  maxOutput: number;
  /** A value printed with `{{ … }}` may not hold a line break (headers: it would start another one). */
  singleLineValues: boolean;
  /** Answers read ahead of the render, by call (`callKey`): the template finds them without a round trip. */
  preloaded?: [string, BridgeReply][];
}

/**
 * The outcome; the calls the render made that the next render of its template can make ahead (`PlannedCall`), and
 * (the pool's count) how many calls it waited on the server for, those not read ahead.
 */
export type RenderReply = ({ ok: true; output: string } | { ok: false; error: string; line?: number }) & {
  calls?: PlannedCall[];
  /** The keys the render read of each model's objects, by model: what the next render's rows need hold. */
  read?: Record<string, string[]>;
  asked?: number;
};

/** From the server to a template process: a render, or the answer to the call the render is waiting on. */
export type ToRenderer = { kind: 'render'; request: RenderRequest } | { kind: 'answer'; reply: BridgeReply };

/** From a template process: loaded, a call to the server during a render, or the render's outcome. */
export type FromRenderer = { kind: 'ready' } | { kind: 'call'; call: BridgeRequest } | { kind: 'done'; reply: RenderReply };
