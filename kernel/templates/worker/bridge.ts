import { receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import { PyError } from '../jinja/errors.js';
import type { BridgeCalls, BridgeMethod, BridgeReply } from '../messages.js';

/**
 * The worker's side of the bridge: templates call functions synchronously (nunjucks has no await), so a call posts
 * its request on a port of its own and sleeps on a shared flag until the main thread, having read the database,
 * posts the reply and raises the flag; the reply is then taken off the port synchronously.
 */
export class Bridge {
  constructor(
    private readonly port: MessagePort,
    private readonly flag: Int32Array,
  ) {}

  call<M extends BridgeMethod>(method: M, ...args: Parameters<BridgeCalls[M]>): ReturnType<BridgeCalls[M]> {
    Atomics.store(this.flag, 0, 0);
    this.port.postMessage({ method, args });
    Atomics.wait(this.flag, 0, 0);
    const reply = receiveMessageOnPort(this.port)?.message as BridgeReply | undefined;
    if (!reply) throw new PyError('RuntimeError', 'The server did not answer the template.');
    if (!reply.ok) throw new PyError('RuntimeError', reply.error);
    return reply.value as ReturnType<BridgeCalls[M]>;
  }
}
