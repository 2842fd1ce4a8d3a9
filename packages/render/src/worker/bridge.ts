import { PyError } from '@patchbay/jinja';
import type { SyncChannel } from '../channel.js';
import type { BridgeCalls, BridgeMethod, BridgeReply, BridgeRequest, Json, Origin, PlannedCall, ToRenderer } from '../messages.js';
import { MOST_PLANNED, callKey } from '../plan.js';

/**
 * The template process's side of the bridge: templates call functions synchronously (Jinja has no await), so a call
 * writes its request to the server and blocks reading until the server, having read the database as the requesting
 * user, writes the answer; unless the server read it ahead of the render (`preloaded`). It notes the render's calls
 * that the next render of the template can have read ahead: those of objects reached from the context, and templates.
 */
export class Bridge {
  private preloaded = new Map<string, BridgeReply>();
  private planned = new Map<string, PlannedCall>();

  constructor(private readonly channel: SyncChannel) {}

  /** A new render: the answers read ahead for it, and no calls yet. */
  begin(preloaded: [string, BridgeReply][] = []): void {
    this.preloaded = new Map(preloaded);
    this.planned = new Map();
  }

  /** The render's calls the next render of its template can make ahead. */
  get plan(): PlannedCall[] {
    return [...this.planned.values()];
  }

  call<M extends BridgeMethod>(method: M, ...args: Parameters<BridgeCalls[M]>): ReturnType<BridgeCalls[M]> {
    return this.callFrom(undefined, method, ...args);
  }

  /** A call concerning the object `origin` reaches (a get of it, a list through it). */
  callFrom<M extends BridgeMethod>(origin: Origin | undefined, method: M, ...args: Parameters<BridgeCalls[M]>): ReturnType<BridgeCalls[M]> {
    // Every call's arguments are JSON: names, ids, offsets and queries of them.
    const call: BridgeRequest = { method, args: args as Json[] };
    const key = callKey(call);
    if ((origin || method === 'template') && this.planned.size < MOST_PLANNED) this.planned.set(key, origin ? { call, origin } : { call });
    const reply = this.preloaded.get(key) ?? this.ask(call);
    if (!reply.ok) throw new PyError('RuntimeError', reply.error);
    return reply.value as ReturnType<BridgeCalls[M]>;
  }

  private ask(call: BridgeRequest): BridgeReply {
    this.channel.write({ kind: 'call', call });
    const message = this.channel.read() as ToRenderer | undefined;
    if (message?.kind !== 'answer') throw new PyError('RuntimeError', 'The server did not answer the template.');
    return message.reply;
  }
}
