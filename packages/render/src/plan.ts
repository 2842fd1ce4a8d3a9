import { createHash } from 'node:crypto';
import type { BridgeReply, BridgeRequest, Origin, PlannedCall, TemplateRow } from './messages.js';
import type { BridgeHandler } from './pool.js';

/** The most calls a render's plan keeps: the objects and lists a template reads around its context's objects. */
export const MOST_PLANNED = 32;
/** The most templates whose plans are kept (the templates used last). */
const MOST_PLANS = 256;
/** The most references an origin follows from its variable. */
const DEEPEST = 8;
/** The most models, and keys of one model, a plan keeps as read. */
const MOST_READ_MODELS = 64;
const MOST_READ_KEYS = 256;

/** What a template's renders asked: the calls of the last one, the keys every one read of each model's objects. */
interface Plan {
  calls: PlannedCall[];
  read: Map<string, Set<string>>;
}

/** A call's identity: the same method with the same arguments (a render may read ahead what it will ask). */
export const callKey = (call: BridgeRequest): string => JSON.stringify([call.method, ...call.args]);

/** What a call answers, as the bridge carries it: a failed read is an answer too (the template is told why). */
export async function replyOf(handler: BridgeHandler, call: BridgeRequest): Promise<BridgeReply> {
  try {
    return { ok: true, value: await handler(call) };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}

const isOrigin = (origin: unknown): origin is Origin =>
  typeof origin === 'object' && origin !== null && typeof (origin as Origin).root === 'string' && Array.isArray((origin as Origin).refs)
  && (origin as Origin).refs.length <= DEEPEST && (origin as Origin).refs.every((r) => typeof r === 'string');

/**
 * What each template called through the bridge the last time it was rendered, by template: a template rendered for
 * one device after another (a configuration) reads the same things of each, so the next render's calls are made
 * before it starts and go with its request, and the template process finds them answered instead of waiting on a
 * round trip each. A call read ahead that the template does not make costs a read; one it makes that was not read
 * ahead goes over the bridge as before, and either way the plan becomes what this render called.
 */
export class RenderPlans {
  private readonly plans = new Map<string, Plan>();

  /** The last source keyed: a render asks for its template's key four times. */
  private last = { source: '', key: '' };

  /** The plans' key of a source: its digest (a source may be large; a plan is kept for the 256 used last). */
  private keyOf(source: string): string {
    if (source !== this.last.source) this.last = { source, key: createHash('sha1').update(source).digest('base64') };
    return this.last.key;
  }

  /**
   * The answers to `source`'s last calls for this render's `objects`: a `get` of the object an origin reaches (the
   * references followed one by one, each a call), a list or count through it, a template by name. Calls of one
   * render run together; each answer is the handler's, as it would have been over the bridge.
   */
  async readAhead(source: string, objects: Record<string, TemplateRow | null>, handler: BridgeHandler): Promise<[string, BridgeReply][]> {
    const plan = this.used(source);
    if (!plan) return [];
    const answers = new Map<string, Promise<BridgeReply>>();
    const ask = (call: BridgeRequest): Promise<BridgeReply> => {
      const id = callKey(call);
      let answer = answers.get(id);
      if (!answer) answers.set(id, (answer = replyOf(handler, call)));
      return answer;
    };
    const follows = new Map<string, Promise<BridgeReply | undefined>>();
    /** The object `refs` reach from `root`, read from the root's id in SQL (`follow`), once per render. */
    const followed = (root: TemplateRow, refs: string[]): Promise<BridgeReply | undefined> => {
      const id = JSON.stringify([root.model, root.id, ...refs]);
      let reply = follows.get(id);
      if (!reply) {
        const follow = handler.follow!;
        follows.set(id, (reply = follow(root, refs).then((value) => (value === undefined ? undefined : { ok: true as const, value }), () => undefined)));
      }
      return reply;
    };
    /**
     * The object an origin reaches: each reference a `get` of the object the one before refers to. Those past the first
     * are asked for at once with it (`follow`, from the root): an answer is the `get`'s when it is the object the one
     * before refers to, as read; otherwise that `get` is made in turn.
     */
    const objectAt = async (origin: Origin): Promise<TemplateRow | null> => {
      const root = Object.hasOwn(objects, origin.root) ? objects[origin.root] : null;
      const ahead = origin.refs.map((_, n) => (root && n > 0 && handler.follow ? followed(root, origin.refs.slice(0, n + 1)) : undefined));
      let row = root;
      for (const [n, ref] of origin.refs.entries()) {
        const to = row && Object.hasOwn(row.refs, ref) ? row.refs[ref] : null;
        if (!to) return null;
        const call: BridgeRequest = { method: 'get', args: [to.model, to.id] };
        const early = await ahead[n];
        const found = early?.ok ? (early.value as TemplateRow | null) : null;
        if (found?.model === to.model && found.id === to.id && !answers.has(callKey(call))) answers.set(callKey(call), Promise.resolve(early!));
        const reply = await ask(call);
        row = reply.ok ? (reply.value as TemplateRow | null) : null;
      }
      return row;
    };
    await Promise.all(plan.calls.map(async ({ call, origin }) => {
      if (!origin) return void ask(call);
      const target = await objectAt(origin);
      const [query, ...rest] = call.args as [{ via?: { model: string; id: number } }, ...BridgeRequest['args']];
      // A list or count through the object: the same query, of this render's object.
      if ((call.method === 'list' || call.method === 'count') && target && query?.via?.model === target.model) {
        await ask({ method: call.method, args: [{ ...query, via: { ...query.via, id: target.id } }, ...rest] as BridgeRequest['args'] });
      }
    }));
    return Promise.all([...answers].map(async ([id, answer]): Promise<[string, BridgeReply]> => [id, await answer]));
  }

  /** The keys renders of `source` read of each model's objects (none before its first render). */
  keysRead(source: string): ReadonlyMap<string, ReadonlySet<string>> | undefined {
    return this.plans.get(this.keyOf(source))?.read;
  }

  /** `source`'s plan, as the one used last. */
  private used(source: string): Plan | undefined {
    const key = this.keyOf(source);
    const plan = this.plans.get(key);
    if (plan) {
      this.plans.delete(key);
      this.plans.set(key, plan);
    }
    return plan;
  }

  /**
   * Keeps what a render of `source` called (as its template process reported it) for the next render of it, and
   * adds the keys it read to those earlier renders read: a key one object's branch reads stays in every row.
   */
  learn(source: string, calls: unknown, read: unknown): void {
    if (!Array.isArray(calls)) return;
    const planned = calls.slice(0, MOST_PLANNED).filter((c): c is PlannedCall => {
      const call = (c as PlannedCall | null)?.call;
      if (!call || !Array.isArray(call.args)) return false;
      const { origin } = c as PlannedCall;
      if (origin !== undefined) return isOrigin(origin) && ['get', 'list', 'count'].includes(call.method);
      return call.method === 'template';
    });
    const kept = this.used(source)?.read ?? new Map<string, Set<string>>();
    if (typeof read === 'object' && read !== null) {
      for (const [model, keys] of Object.entries(read as Record<string, unknown>)) {
        if (!Array.isArray(keys) || (!kept.has(model) && kept.size >= MOST_READ_MODELS)) continue;
        const known = kept.get(model) ?? new Set<string>();
        for (const k of keys) if (typeof k === 'string' && known.size < MOST_READ_KEYS) known.add(k);
        kept.set(model, known);
      }
    }
    this.plans.set(this.keyOf(source), { calls: planned, read: kept });
    if (this.plans.size > MOST_PLANS) this.plans.delete(this.plans.keys().next().value!);
  }
}
