import { PyError } from '@patchbay/jinja';
import type { SyncChannel } from '../channel.js';
import type { BridgeCalls, BridgeMethod, ToRenderer } from '../messages.js';

/**
 * The template process's side of the bridge: templates call functions synchronously (Jinja has no await), so a call
 * writes its request to the server and blocks reading until the server, having read the database as the requesting
 * user, writes the answer.
 */
export class Bridge {
  constructor(private readonly channel: SyncChannel) {}

  call<M extends BridgeMethod>(method: M, ...args: Parameters<BridgeCalls[M]>): ReturnType<BridgeCalls[M]> {
    this.channel.write({ kind: 'call', call: { method, args } });
    const message = this.channel.read() as ToRenderer | undefined;
    if (message?.kind !== 'answer') throw new PyError('RuntimeError', 'The server did not answer the template.');
    if (!message.reply.ok) throw new PyError('RuntimeError', message.reply.error);
    return message.reply.value as ReturnType<BridgeCalls[M]>;
  }
}
