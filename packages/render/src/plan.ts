import { createHash } from 'node:crypto';
import type { BridgeReply, BridgeRequest, Origin, PlannedCall, TemplateRow } from './messages.js';
import type { BridgeHandler } from './pool.js';

/** The most calls a render's plan keeps: the objects and lists a template reads around its context's objects. */
export const MOST_PLANNED = 32;
/** The most templates whose plans are kept (the templates used last). */
const MOST_PLANS = 256;
/** The most references an origin follows from its variable. */
const DEEPEST = 8;

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
  private readonly plans = new Map<string, PlannedCall[]>();

  private static keyOf(source: string): string {
    return createHash('sha1').update(source).digest('base64');
  }

  /**
   * The answers to `source`'s last calls for this render's `objects`: a `get` of the object an origin reaches (the
   * references followed one by one, each a call), a list or count through it, a template by name. Calls of one
   * render run together; each answer is the handler's, as it would have been over the bridge.
   */
  async readAhead(source: string, objects: Record<string, TemplateRow | null>, handler: BridgeHandler): Promise<[string, BridgeReply][]> {
    const key = RenderPlans.keyOf(source);
    const plan = this.plans.get(key);
    if (!plan) return [];
    this.plans.delete(key);
    this.plans.set(key, plan);
    const answers = new Map<string, Promise<BridgeReply>>();
    const ask = (call: BridgeRequest): Promise<BridgeReply> => {
      const id = callKey(call);
      let answer = answers.get(id);
      if (!answer) answers.set(id, (answer = replyOf(handler, call)));
      return answer;
    };
    const objectAt = async (origin: Origin): Promise<TemplateRow | null> => {
      let row = Object.hasOwn(objects, origin.root) ? objects[origin.root] : null;
      for (const ref of origin.refs) {
        const to = row && Object.hasOwn(row.refs, ref) ? row.refs[ref] : null;
        if (!to) return null;
        const reply = await ask({ method: 'get', args: [to.model, to.id] });
        row = reply.ok ? (reply.value as TemplateRow | null) : null;
      }
      return row;
    };
    await Promise.all(plan.map(async ({ call, origin }) => {
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

  /** Keeps what a render of `source` called (as its template process reported it) for the next render of it. */
  learn(source: string, calls: unknown): void {
    if (!Array.isArray(calls)) return;
    const plan = calls.slice(0, MOST_PLANNED).filter((c): c is PlannedCall => {
      const call = (c as PlannedCall | null)?.call;
      if (!call || !Array.isArray(call.args)) return false;
      const { origin } = c as PlannedCall;
      if (origin !== undefined) return isOrigin(origin) && ['get', 'list', 'count'].includes(call.method);
      return call.method === 'template';
    });
    const key = RenderPlans.keyOf(source);
    this.plans.delete(key);
    if (!plan.length) return;
    this.plans.set(key, plan);
    if (this.plans.size > MOST_PLANS) this.plans.delete(this.plans.keys().next().value!);
  }
}
